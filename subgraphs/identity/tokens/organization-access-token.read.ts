import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { organizationAccess } from '../organizations/organization.read.js';
import { OrganizationAccessToken } from './organization-access-token.entity.js';

export interface OrganizationAccessTokenReadFilters {
  organizationId?: string;
}

/**
 * Live organization access tokens of the organizations the caller may read (the organizations' own
 * rule, organization.read.ts), newest first: one statement per page, plus the exact count when the
 * page is full. The row never carries the token's hash (hidden properties stay out of read rows).
 */
export const organizationAccessTokenRead = new ReadModel<OrganizationAccessTokenReadFilters>({
  name: 'organization_access_tokens',
  from: 'identity.organization_access_tokens t',
  alias: 't',
  readers: ['user', 'organization'],
  tenant: { organization: 't.organization_id' },
  access: principal => organizationAccess(principal, 't.organization_id'),
  visible: 't.deleted_at is null',
  select: { r: entityJson(OrganizationAccessToken, 't') },
  filters: { organizationId: { where: 't.organization_id = ?' } },
  sorts: { created_at: { sql: 't.created_at' } },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
