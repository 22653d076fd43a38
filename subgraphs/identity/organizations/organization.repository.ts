import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { downScope } from '../../../kit/database/tenant-scope.js';
import type { Principal } from '../../../kit/principal.js';
import { MANAGING_ROLES, Membership, type MemberRole } from '../memberships/membership.entity.js';
import { Organization } from './organization.entity.js';

/**
 * Every read of organizations goes through here, scoped to what the principal may see: a user sees
 * the organizations they are a member of (intersected with any token down-scope or `Polar-Organization`
 * header: `downScope`), an organization token sees its own organization, a customer session its
 * customer's organization (by entity reference only), anyone else sees nothing. Another tenant's id is
 * "not found".
 */
export class OrganizationRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * NOTE: the read path's `organizationAccess` (organization.read.ts) is the same rule in SQL, for the
   * lists and gets; change both together (organization-list.test.ts compares them).
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
        const narrowed = downScope(principal);
        return narrowed ? { $and: [filter, { id: { $in: [...narrowed] } }] } : filter;
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

  findReadable(principal: Principal, id: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { $and: [this.readableFilter(principal), { id }] });
  }

  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Organization[]> {
    return this.em.find(Organization, { $and: [this.readableFilter(principal), { id: { $in: [...ids] } }] });
  }

  /** Unscoped, for the public profile a caller who may not read the organization sees (organization.reference.ts). */
  findByIds(ids: readonly string[]): Promise<Organization[]> {
    return this.em.find(Organization, { id: { $in: [...ids] } });
  }

  /** Unscoped, for operator commands (admin.ts) that check an organization exists. */
  findById(id: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { id });
  }

  /** Unscoped: the slug alone (the `name` claim of an organization's UserInfo). */
  slugOf(id: string): Promise<Pick<Organization, 'slug'> | null> {
    return this.em.findOne(Organization, { id }, { fields: ['slug'] });
  }

  /** Unscoped: the organizations a caller already knows they belong to, by name (the consent page). */
  namesOf(ids: readonly string[]): Promise<Pick<Organization, 'id' | 'name' | 'slug'>[]> {
    return this.em.find(
      Organization,
      { id: { $in: [...ids] } },
      { fields: ['id', 'name', 'slug'], orderBy: { name: 'asc' } },
    );
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
