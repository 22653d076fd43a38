import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { Payment } from './payment.entity.js';

export interface PaymentReadFilters {
  checkoutId?: string[];
  orderId?: string[];
  customerId?: string[];
  status?: string[];
  method?: string[];
  customerEmail?: string[];
}

/** Payments (`/v1/payments/`): one statement per page, each row the payment's own JSON. */
export const paymentRead = new ReadModel<PaymentReadFilters>({
  name: 'payments',
  from: 'billing.payments y',
  alias: 'y',
  readers: CORE_READERS,
  tenant: { organization: 'y.organization_id' },
  select: { r: entityJson(Payment, 'y') },
  filters: {
    checkoutId: { where: 'y.checkout_id = any(?::uuid[])' },
    orderId: { where: 'y.order_id = any(?::uuid[])' },
    customerId: { where: 'y.customer_id = any(?::uuid[])' },
    status: { where: 'y.status = any(?::text[])' },
    method: { where: 'y.method = any(?::text[])' },
    customerEmail: {
      where:
        'y.customer_id = any(array(select pc.id from billing.customers pc where pc.organization_id = y.organization_id and lower(pc.email) = any(?::text[])))',
      values: emails => [emails.map(e => e.toLowerCase())],
    },
  },
  sorts: {
    created_at: { sql: 'y.created_at' },
    status: { sql: 'y.status' },
    amount: { sql: 'y.amount' },
    method: { sql: 'y.method' },
  },
  tieBreaker: 'id',
});
