import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { Member } from './member.entity.js';

export interface MemberReadFilters {
  customerId?: string;
  role?: string;
  externalId?: string;
}

/**
 * Live members as lists and gets serve them. A merchant reads its organizations' members; a customer
 * session the members of its own customer (its portal team).
 */
export const memberRead = new ReadModel<MemberReadFilters>({
  name: 'members',
  from: 'billing.members m',
  alias: 'm',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 'm.organization_id', customer: 'm.customer_id' },
  visible: 'm.deleted_at is null',
  select: { r: entityJson(Member, 'm') },
  filters: {
    customerId: { where: 'm.customer_id = ?' },
    role: { where: 'm.role = ?' },
    externalId: { where: 'm.external_id = ?' },
  },
  sorts: { created_at: { sql: 'm.created_at' } },
  tieBreaker: 'id',
});

/** Polar's member sort keys and its default order. */
export const MEMBER_SORT_KEYS = ['created_at'] as const;
export const MEMBER_DEFAULT_SORTING = ['-created_at'];
