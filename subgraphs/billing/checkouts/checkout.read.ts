import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedDiscount } from '../discounts/discount.read.js';
import { priceJson, productJson } from '../products/product.read.js';
import { Checkout } from './checkout.entity.js';

export interface CheckoutReadFilters {
  productId?: string[];
  customerId?: string[];
  status?: string[];
  query?: string;
}

/**
 * Checkouts as lists and gets serve them: one statement per page, each row the checkout with its
 * products (and their live prices), the selected price and the discount as JSON
 * (`CheckoutType.fromRow`). The client endpoints read the same row within the checkout's organization.
 */
export const checkoutRead = new ReadModel<CheckoutReadFilters>({
  name: 'checkouts',
  from: 'billing.checkouts k',
  alias: 'k',
  readers: CORE_READERS,
  tenant: { organization: 'k.organization_id' },
  select: {
    r: entityJson(Checkout, 'k'),
    products: em =>
      `(select coalesce(json_agg(${productJson('p')(em)} order by array_position(k.product_ids, p.id)), '[]'::json) from billing.products p where p.id = any(k.product_ids) and p.organization_id = k.organization_id)`,
    price: em =>
      `(select ${priceJson('kp', 'kpp')(em)} from billing.product_prices kp join billing.products kpp on kpp.id = kp.product_id and kpp.organization_id = k.organization_id where kp.id = k.product_price_id)`,
    discount: embeddedDiscount('k'),
  },
  filters: {
    productId: { where: 'k.product_id = any(?::uuid[])' },
    customerId: { where: 'k.customer_id = any(?::uuid[])' },
    // `expired` is also an open checkout whose time is up (the expiry job is the recurring engine's).
    status: {
      where:
        "(case when k.status = 'open' and k.expires_at <= now() then 'expired' else k.status end) = any(?::text[])",
    },
    query: { where: '(k.customer_email ilike ? or k.customer_name ilike ?)', values: q => [`%${q}%`, `%${q}%`] },
  },
  sorts: {
    created_at: { sql: 'k.created_at' },
    expires_at: { sql: 'k.expires_at' },
    status: { sql: 'k.status' },
  },
  tieBreaker: 'id',
});
