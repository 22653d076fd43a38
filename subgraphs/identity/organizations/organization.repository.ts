import type { EntityManager, FilterQuery, QBFilterQuery } from '@mikro-orm/postgresql';
import { param, QueryShapes } from '../../../kit/database/query-shapes.js';
import { totalFromPage } from '../../../kit/graphql/pagination.js';
import type { Principal } from '../../../kit/principal.js';
import { MANAGING_ROLES, Membership, type MemberRole } from '../memberships/membership.entity.js';
import { Organization } from './organization.entity.js';

/** An organization as a list returns it: the entity's data, not a managed entity. */
export type OrganizationRecord = Readonly<Organization>;

export interface OrganizationFilters {
  slug?: string | null;
}

const shapes = new QueryShapes();

/**
 * The principal with its ids replaced by query parameter markers (their values go into `values`), so
 * that one compiled query serves every principal of the same kind.
 */
function principalTemplate(principal: Principal, values: Record<string, unknown>): Principal {
  const mark = <T extends string | null | undefined>(name: string, value: T): T => {
    if (value == null) return value;
    values[name] = value;
    return param(name) as T;
  };
  return {
    ...principal,
    subjectId: mark('subjectId', principal.subjectId),
    tokenId: mark('tokenId', principal.tokenId),
    ...(principal.clientId === undefined ? {} : { clientId: mark('clientId', principal.clientId) }),
    organizationIds: principal.organizationIds.map((id, i) => mark(`organizationId${i}`, id)),
  };
}

/**
 * Every read of organizations goes through here, scoped to what the principal may see: a user sees
 * the organizations they are a member of (intersected with any token down-scope), an organization
 * token sees its own organization, a customer session its customer's organization (by entity
 * reference only), anyone else sees nothing. Another tenant's id is "not found".
 */
export class OrganizationRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * NOTE: `list` compiles the SQL of this filter once per shape, with the principal's ids (subject,
   * token, client, organization ids) replaced by parameter markers and every other field kept as is.
   * Branch on the kind of principal, its credential, scopes or the number of ids, never on an id's value.
   */
  readableFilter(principal: Principal): FilterQuery<Organization> {
    switch (principal.subject) {
      case 'organization':
        return { id: principal.subjectId! };
      case 'user': {
        const memberOf = this.em
          .createQueryBuilder(Membership, 'm')
          .select('m.organizationId')
          .where({ userId: principal.subjectId! });
        const filter = { id: { $in: memberOf } } as FilterQuery<Organization>;
        return principal.credential === 'oauth2_token' && principal.organizationIds.length
          ? { $and: [filter, { id: { $in: principal.organizationIds } }] }
          : filter;
      }
      case 'customer':
        // NOTE: a customer session (billing's `polar_cst_`) reads its own organization only, so that the
        // Customer Portal can embed it (`product.organization`, Polar's CustomerOrganization) through
        // `Organization` entity references. This opens nothing else: every root query and mutation of
        // identity authorizes `user`/`organization` subjects only (organization.resolver.ts,
        // organization-access-token.resolver.ts), so a customer token still gets 401 on
        // `GET /v1/organizations/` and on `organizations` / `organization` over POST /graphql
        // (test/e2e/customer-portal-organization.test.ts). Of the organization, a customer reads only
        // CustomerOrganization's fields; the others answer 403 (organization.reference.ts).
        return principal.organizationIds.length ? { id: { $in: principal.organizationIds } } : ({ id: null } as never);
      default:
        return { id: null } as never;
    }
  }

  /**
   * The readable filter and `where` together. When they share no key they are merged into one object
   * (same conjunction): MikroORM builds a flat condition markedly faster than an `$and` of two, and
   * this runs on every list request.
   */
  private readableAnd(principal: Principal, where: FilterQuery<Organization>): FilterQuery<Organization> {
    const readable = this.readableFilter(principal) as Record<string, unknown>;
    const extra = where as Record<string, unknown>;
    if (Object.keys(extra).every(key => !(key in readable)))
      return { ...readable, ...extra } as FilterQuery<Organization>;
    return { $and: [readable, extra] } as FilterQuery<Organization>;
  }

  /**
   * One page of the readable organizations and their total. The hottest read there is, so its SQL is
   * built once per shape (kit/database/query-shapes.ts) from the same `readableFilter`, and its rows
   * are plain, unmanaged records (read-only: nothing flushes them).
   */
  async list(
    principal: Principal,
    filters: OrganizationFilters,
    orderBy: Record<string, 'asc' | 'desc'>,
    window: { limit: number; offset: number },
  ): Promise<[OrganizationRecord[], number]> {
    const values: Record<string, unknown> = { limit: window.limit, offset: window.offset };
    const template = principalTemplate(principal, values);
    const where: Record<string, unknown> = {};
    if (filters.slug != null) {
      where.slug = param('slug');
      values.slug = filters.slug;
    }
    // Everything that can change the SQL text: the principal with its ids replaced by markers (every
    // other field verbatim), which filters are present, and the order.
    const key = JSON.stringify([template, Object.keys(where), orderBy]);
    const filter = () => this.readableAnd(template, where as FilterQuery<Organization>) as QBFilterQuery<Organization>;
    const items = await shapes.all(
      this.em,
      Organization,
      key,
      () =>
        this.em
          .createQueryBuilder(Organization)
          .select('*')
          .where(filter())
          .orderBy(orderBy)
          .limit(param('limit') as unknown as number)
          .offset(param('offset') as unknown as number),
      values,
    );
    // Only a full page (or one past the end) needs the count query.
    const total =
      totalFromPage(items.length, window) ??
      (await shapes.number(
        this.em,
        key,
        () => this.em.createQueryBuilder(Organization).count().where(filter()),
        values,
      ));
    return [items as OrganizationRecord[], total];
  }

  findReadable(principal: Principal, id: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { $and: [this.readableFilter(principal), { id }] });
  }

  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Organization[]> {
    return this.em.find(Organization, { $and: [this.readableFilter(principal), { id: { $in: [...ids] } }] });
  }

  /** Unscoped, for the public profile an anonymous checkout embeds (organization.reference.ts). */
  findByIds(ids: readonly string[]): Promise<Organization[]> {
    return this.em.find(Organization, { id: { $in: [...ids] } });
  }

  findBySlug(slug: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { slug });
  }

  async roleOf(userId: string, organizationId: string): Promise<MemberRole | null> {
    const membership = await this.em.findOne(Membership, { userId, organizationId });
    return membership?.role ?? null;
  }

  async canManage(principal: Principal, organizationId: string): Promise<boolean> {
    if (principal.subject === 'organization') return principal.subjectId === organizationId;
    if (principal.subject !== 'user') return false;
    const role = await this.roleOf(principal.subjectId!, organizationId);
    return role !== null && MANAGING_ROLES.has(role);
  }
}
