import { NotPermitted } from '../errors.js';
import type { Principal, SubjectKind } from '../principal.js';

/**
 * What a principal may read, as the read path and the repositories apply it: the organizations it may
 * act for and, for a customer session, its own customer. `null` means nothing at all.
 */
export interface TenantScope {
  organizationIds: readonly string[];
  /** Set for a customer principal only: it reads its own rows (its subscriptions, itself). */
  customerId: string | null;
}

/** Core API resources: read by people and organization tokens. */
export const CORE_READERS: readonly SubjectKind[] = ['user', 'organization'];
/** Customer Portal resources: read by a customer session. */
export const PORTAL_READERS: readonly SubjectKind[] = ['customer'];

/**
 * THE tenant rule of the subgraphs that scope by organization (billing, webhooks): every read statement,
 * every load-for-write, every repository and every create path asks here, so there is one place that
 * decides who touches what. A subject the resource does not serve gets nothing (defence in depth behind
 * the resolvers' `authorize`), a principal without organizations gets nothing, a customer is narrowed
 * to its own customer id. Organization ids come from the principal (resolved by identity at the edge):
 * billing never reads identity's tables. test/contract/tenant-scope.test.ts keeps the principal's
 * organization ids from being read for scoping anywhere but here.
 */
export function tenantScope(principal: Principal, readers: readonly SubjectKind[]): TenantScope | null {
  if (!readers.includes(principal.subject) || !principal.organizationIds.length) return null;
  if (principal.subject === 'customer') {
    return principal.subjectId ? { organizationIds: principal.organizationIds, customerId: principal.subjectId } : null;
  }
  return { organizationIds: principal.organizationIds, customerId: null };
}

/** The scope narrowed to the requested organizations (an unreadable one simply drops out). */
export function narrowScope(
  scope: TenantScope | null,
  requested: readonly string[] | undefined | null,
): TenantScope | null {
  if (!scope || !requested?.length) return scope;
  const organizationIds = scope.organizationIds.filter(id => requested.includes(id));
  return organizationIds.length ? { ...scope, organizationIds } : null;
}

/**
 * The organizations whose rows of a resource served to `readers` the principal may touch, narrowed to
 * `requested` when given: an organization token's own, a user's memberships (∩ an OAuth down-scope,
 * already applied by identity), a customer's organization. Empty: nothing.
 */
export function scopedOrganizationIds(
  principal: Principal,
  readers: readonly SubjectKind[] = CORE_READERS,
  requested?: readonly string[] | null,
): string[] {
  return [...(narrowScope(tenantScope(principal, readers), requested)?.organizationIds ?? [])];
}

/**
 * Whether the principal may act for this organization at all (create in it, write to it, resolve it):
 * it is one of the organizations its identity carries. A customer acts for the organization it is a
 * customer of.
 */
export function actsForOrganization(principal: Principal, organizationId: string): boolean {
  return principal.organizationIds.includes(organizationId);
}

/**
 * The principal of a request whose `Polar-Organization` header names `organizationId`
 * (docs/principals.md#polar-organization). A user (personal token, OAuth token, session) acts for that one
 * organization only: its organizations are narrowed to it, so every read, load-for-write and create
 * path, all of which ask this module, sees one organization. An organization token naming its own
 * organization is unchanged. A principal that cannot act for it (not a member, an OAuth grant that does
 * not cover it, another organization's token) is refused here, before any subgraph runs. Customer
 * sessions and anonymous callers are not narrowed: the header is not theirs to use.
 * @throws NotPermitted
 */
export function actingFor(principal: Principal, organizationId: string): Principal {
  if (principal.subject === 'organization') {
    if (principal.subjectId === organizationId) return principal;
    throw new NotPermitted(
      `This token acts for its own organization only, not ${organizationId} (Polar-Organization).`,
    );
  }
  if (principal.subject !== 'user') return principal;
  if (!principal.organizationIds.includes(organizationId)) {
    throw new NotPermitted(
      principal.credential === 'oauth2_token'
        ? `This OAuth token cannot act for organization ${organizationId} (Polar-Organization): its user is not a member of it, or its grant does not cover it.`
        : `You are not a member of organization ${organizationId} (Polar-Organization).`,
    );
  }
  return { ...principal, organizationIds: [organizationId], actingOrganizationId: organizationId };
}

/**
 * The organizations a user principal is narrowed to beyond its memberships (an OAuth grant, a
 * `Polar-Organization` header), for the subgraph that owns the memberships and scopes by them itself
 * (identity); `null` when the principal stands for all of its memberships.
 */
export function downScope(principal: Principal): readonly string[] | null {
  if (principal.subject !== 'user') return null;
  const narrowed =
    principal.actingOrganizationId || (principal.credential === 'oauth2_token' && principal.organizationIds.length);
  return narrowed ? principal.organizationIds : null;
}

/** The organization named by the request's `Polar-Organization` header, when it narrowed a user. */
export function actingOrganization(principal: Principal): string | null {
  return principal.actingOrganizationId ?? null;
}

/**
 * The one organization a principal stands for when a call names none: an organization token's own,
 * the one a `Polar-Organization` header names, an OAuth token down-scoped to exactly one organization,
 * a customer session's organization. `null` when that is not decided by the principal alone (a user of
 * several organizations).
 */
export function soleOrganization(principal: Principal): string | null {
  if (principal.subject === 'organization') return principal.subjectId;
  if (principal.actingOrganizationId) return principal.actingOrganizationId;
  if (principal.subject === 'customer') return principal.organizationIds[0] ?? null;
  if (principal.credential === 'oauth2_token' && principal.organizationIds.length === 1)
    return principal.organizationIds[0];
  return null;
}
