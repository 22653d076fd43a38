import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { SavedPaymentMethod } from './saved-payment-method.entity.js';

/** Live saved methods, newest first, each with whether it is its customer's default. */
const savedMethods = {
  from: 'billing.payment_methods pm',
  alias: 'pm',
  tenant: { organization: 'pm.organization_id', customer: 'pm.customer_id' },
  visible: 'pm.deleted_at is null',
  select: {
    r: entityJson(SavedPaymentMethod, 'pm'),
    is_default:
      'coalesce((select c.default_payment_method_id = pm.id from billing.customers c where c.id = pm.customer_id), false)',
  },
  sorts: { created_at: { sql: 'pm.created_at' } },
  tieBreaker: 'id',
} as const;

/** A customer's saved payment methods as the Customer Portal lists them: one statement per page. */
export const paymentMethodRead = new ReadModel<Record<string, never>>({
  ...savedMethods,
  name: 'payment_methods',
  readers: PORTAL_READERS,
  filters: {},
});

/** One customer's saved payment methods as the merchant lists them (`/v1/customers/{id}/payment-methods`). */
export const customerPaymentMethodRead = new ReadModel<{ customerId: string[] }>({
  ...savedMethods,
  name: 'customer_payment_methods',
  readers: CORE_READERS,
  filters: { customerId: { where: 'pm.customer_id = any(?::uuid[])' } },
});
