import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { Refund } from './refund.entity.js';

export interface RefundReadFilters {
  id?: string[];
  orderId?: string[];
  subscriptionId?: string[];
  customerId?: string[];
  externalCustomerId?: string[];
  /** `true`: succeeded only; `false`: every other status (Polar's `succeeded` filter). */
  succeeded?: boolean;
}

/** Refunds (`/v1/refunds/`): one statement per page, each row the refund's own JSON. */
export const refundRead = new ReadModel<RefundReadFilters>({
  name: 'refunds',
  from: 'billing.refunds rf',
  alias: 'rf',
  readers: CORE_READERS,
  tenant: { organization: 'rf.organization_id' },
  select: { r: entityJson(Refund, 'rf') },
  filters: {
    id: { where: 'rf.id = any(?::uuid[])' },
    orderId: { where: 'rf.order_id = any(?::uuid[])' },
    subscriptionId: { where: 'rf.subscription_id = any(?::uuid[])' },
    customerId: { where: 'rf.customer_id = any(?::uuid[])' },
    externalCustomerId: {
      where:
        'rf.customer_id = any(array(select xc.id from billing.customers xc where xc.organization_id = any(?::uuid[]) and xc.external_id = any(?::text[])))',
      values: (externalIds, scope) => [scope.organizationIds, externalIds],
    },
    succeeded: {
      where: succeeded => (succeeded ? "rf.status = 'succeeded'" : "rf.status <> 'succeeded'"),
      values: () => [],
    },
  },
  sorts: {
    created_at: { sql: 'rf.created_at' },
    amount: { sql: 'rf.amount' },
  },
  tieBreaker: 'id',
});
