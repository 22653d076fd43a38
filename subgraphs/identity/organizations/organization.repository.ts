import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import type { Principal } from '../../../kit/principal.js';
import { MANAGING_ROLES, Membership, type MemberRole } from '../memberships/membership.entity.js';
import { Organization } from './organization.entity.js';

/**
 * Every read of organizations goes through here, scoped to what the principal may see: a user sees
 * the organizations they are a member of (intersected with any token down-scope), an organization
 * token sees its own organization, anyone else sees nothing. Another tenant's id is "not found".
 */
export class OrganizationRepository {
  constructor(private readonly em: EntityManager) {}

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
      default:
        return { id: null } as never;
    }
  }

  async list(
    principal: Principal,
    where: FilterQuery<Organization>,
    orderBy: Record<string, 'asc' | 'desc'>,
    window: { limit: number; offset: number },
  ): Promise<[Organization[], number]> {
    return this.em.findAndCount(
      Organization,
      { $and: [this.readableFilter(principal), where] },
      { orderBy, limit: window.limit, offset: window.offset },
    );
  }

  findReadable(principal: Principal, id: string): Promise<Organization | null> {
    return this.em.findOne(Organization, { $and: [this.readableFilter(principal), { id }] });
  }

  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Organization[]> {
    return this.em.find(Organization, { $and: [this.readableFilter(principal), { id: { $in: [...ids] } }] });
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
