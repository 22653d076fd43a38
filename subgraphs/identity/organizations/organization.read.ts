import { entityJson } from '../../../kit/database/read/entity-json.js';
import { downScope } from '../../../kit/database/tenant-scope.js';
import { type AccessRule, ReadModel, type SortCriterion } from '../../../kit/database/read/read-model.js';
import type { Principal } from '../../../kit/principal.js';
import { Organization } from './organization.entity.js';

/**
 * The organizations `principal` may read, as SQL over `column` (an organization id): the same rule as
 * `OrganizationRepository.readableFilter` (which the write path uses; organization-list.test.ts checks
 * that both agree). A user reads the organizations it is a member of *now* (the memberships table, not
 * the ids its principal carries), an OAuth token only those of its grant among them, a request with a
 * `Polar-Organization` header only that one (`downScope`), an organization
 * token its own organization, a customer session its customer's organization; anyone else nothing.
 */
export function organizationAccess(principal: Principal, column: string): AccessRule | null {
  switch (principal.subject) {
    case 'organization':
      return principal.subjectId
        ? { key: 'organization', where: [`${column} = ?`], values: [principal.subjectId] }
        : null;
    case 'user': {
      if (!principal.subjectId) return null;
      const member = `${column} in (select m.organization_id from identity.memberships m where m.user_id = ?)`;
      const narrowed = downScope(principal);
      if (narrowed) {
        return {
          key: 'user-narrowed',
          where: [member, `${column} = any(?)`],
          values: [principal.subjectId, [...narrowed]],
        };
      }
      return { key: 'user', where: [member], values: [principal.subjectId] };
    }
    case 'customer':
      return principal.organizationIds.length
        ? { key: 'customer', where: [`${column} = any(?)`], values: [[...principal.organizationIds]] }
        : null;
    default:
      return null;
  }
}

export interface OrganizationReadFilters {
  slug?: string;
}

/**
 * Organizations as the list and the get serve them: one statement per page (plus the exact count when
 * the page is full), rows as JSON with the entity's property names, shaped by `OrganizationType.fromEntity`.
 */
export const organizationRead = new ReadModel<OrganizationReadFilters>({
  name: 'organizations',
  from: 'identity.organizations o',
  alias: 'o',
  readers: ['user', 'organization', 'customer'],
  tenant: { organization: 'o.id' },
  access: principal => organizationAccess(principal, 'o.id'),
  select: { r: entityJson(Organization, 'o') },
  filters: { slug: { where: 'o.slug = ?' } },
  // Keyed by the entity property `organizationOrderBy` returns.
  sorts: {
    createdAt: { sql: 'o.created_at' },
    slug: { sql: 'o.slug' },
    name: { sql: 'o.name' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});

/** `organizationOrderBy`'s `{ property: direction, id: 'asc' }` as the read path's criteria (id is the tie-breaker). */
export function organizationCriteria(orderBy: Record<string, 'asc' | 'desc'>): SortCriterion[] {
  return Object.entries(orderBy)
    .filter(([key]) => key !== 'id')
    .map(([key, direction]) => ({ key, direction }));
}
