import type { Principal, SubjectKind } from '../../principal.js';

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
 * THE tenant rule of the subgraphs that scope by organization (billing, and later orders, checkouts,
 * benefits, webhooks): every repository and every read statement asks here, so there is one place
 * that decides who reads what. A subject the resource does not serve reads nothing (defence in depth
 * behind the resolvers' `authorize`), a principal without organizations reads nothing, a customer is
 * narrowed to its own customer id. Organization ids come from the principal (resolved by identity at
 * the edge): billing never reads identity's tables.
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
