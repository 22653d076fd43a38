import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedCustomer } from '../customers/customer.read.js';
import { embeddedDiscount } from '../discounts/discount.read.js';
import { embeddedProduct, priceJson } from '../products/product.read.js';
import { Subscription } from '../subscriptions/subscription.entity.js';
import { OrderItem } from './order-item.entity.js';
import { Order } from './order.entity.js';
import { ORDER_SORT_COLUMNS } from './order.sorting.js';

/** The filters of `GET /v1/orders/` (the organization filter narrows the tenant scope instead). */
export interface OrderReadFilters {
  productId?: string[];
  productBillingType?: string[];
  discountId?: string[];
  customerId?: string[];
  externalCustomerId?: string[];
  checkoutId?: string[];
  subscriptionId?: string[];
  status?: string[];
  billingReason?: string[];
}

/**
 * Orders as every list and get serves them (docs/data-access.md): one statement per page,
 * each row the order with its customer, product (and live prices), deprecated price, discount,
 * subscription (own fields) and items as JSON; `OrderType.fromRow` shapes it. A customer session reads
 * its own (the Customer Portal).
 */
export const orderRead = new ReadModel<OrderReadFilters>({
  name: 'orders',
  from: 'billing.orders o',
  alias: 'o',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 'o.organization_id', customer: 'o.customer_id' },
  select: {
    r: entityJson(Order, 'o'),
    customer: embeddedCustomer('o'),
    product: embeddedProduct('o'),
    price: em =>
      `(select ${priceJson('op', 'opp')(em)} from billing.product_prices op join billing.products opp on opp.id = op.product_id and opp.organization_id = o.organization_id where op.id = o.product_price_id)`,
    discount: embeddedDiscount('o'),
    subscription: em =>
      `(select ${entityJson(Subscription, 'os')(em)} from billing.subscriptions os where os.id = o.subscription_id and os.organization_id = o.organization_id)`,
    items: em =>
      `(select coalesce(json_agg(${entityJson(OrderItem, 'oi')(em)} order by oi.position), '[]'::json) from billing.order_items oi where oi.order_id = o.id)`,
  },
  filters: {
    productId: { where: 'o.product_id = any(?::uuid[])' },
    productBillingType: {
      where:
        "(select case when bp.recurring_interval is null then 'one_time' else 'recurring' end from billing.products bp where bp.id = o.product_id) = any(?::text[])",
    },
    discountId: { where: 'o.discount_id = any(?::uuid[])' },
    customerId: { where: 'o.customer_id = any(?::uuid[])' },
    externalCustomerId: {
      where:
        'o.customer_id = any(array(select xc.id from billing.customers xc where xc.organization_id = any(?::uuid[]) and xc.external_id = any(?::text[])))',
      values: (externalIds, scope) => [scope.organizationIds, externalIds],
    },
    checkoutId: { where: 'o.checkout_id = any(?::uuid[])' },
    subscriptionId: { where: 'o.subscription_id = any(?::uuid[])' },
    status: { where: 'o.status = any(?::text[])' },
    billingReason: { where: 'o.billing_reason = any(?::text[])' },
  },
  sorts: ORDER_SORT_COLUMNS,
  tieBreaker: 'id',
});
