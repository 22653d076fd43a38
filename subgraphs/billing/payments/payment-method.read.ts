import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { SavedPaymentMethod } from './saved-payment-method.entity.js';

/**
 * A customer's saved payment methods as the Customer Portal lists them (live ones, newest first),
 * each with whether it is the customer's default: one statement per page.
 */
export const paymentMethodRead = new ReadModel<Record<string, never>>({
  name: 'payment_methods',
  from: 'billing.payment_methods pm',
  alias: 'pm',
  readers: PORTAL_READERS,
  tenant: { organization: 'pm.organization_id', customer: 'pm.customer_id' },
  visible: 'pm.deleted_at is null',
  select: {
    r: entityJson(SavedPaymentMethod, 'pm'),
    is_default:
      'coalesce((select c.default_payment_method_id = pm.id from billing.customers c where c.id = pm.customer_id), false)',
  },
  filters: {},
  sorts: { created_at: { sql: 'pm.created_at' } },
  tieBreaker: 'id',
});
