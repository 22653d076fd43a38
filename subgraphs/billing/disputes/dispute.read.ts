import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedCustomer } from '../customers/customer.read.js';
import { Dispute } from './dispute.entity.js';

export interface DisputeReadFilters {
  orderId?: string[];
  status?: string[];
}

/** Disputes (`/v1/disputes/`): one statement per page, each row the dispute's JSON and its customer. */
export const disputeRead = new ReadModel<DisputeReadFilters>({
  name: 'disputes',
  from: 'billing.disputes dp',
  alias: 'dp',
  readers: CORE_READERS,
  tenant: { organization: 'dp.organization_id' },
  select: { d: entityJson(Dispute, 'dp'), customer: embeddedCustomer('dp') },
  filters: {
    orderId: { where: 'dp.order_id = any(?::uuid[])' },
    status: { where: 'dp.status = any(?::text[])' },
  },
  sorts: {
    created_at: { sql: 'dp.created_at' },
    amount: { sql: 'dp.amount' },
  },
  tieBreaker: 'id',
});
