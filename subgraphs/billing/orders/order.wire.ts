import { discountBaseWire } from '../discounts/discount.wire.js';
import { priceWire, productWire } from '../products/product.wire.js';
import { wireWith } from '../shared/wire.js';

type Wire = Record<string, any>;

const ORDER_OWN = {
  organization: null,
  organizationId: null,
  product: (product: object | null) => (product ? productWire(product) : null),
  productPrice: (price: object | null) => (price ? priceWire(price) : null),
  discount: (discount: object | null) => (discount ? discountBaseWire(discount) : null),
};

/**
 * An order as Polar sends it (docs/polar/resources.md#order), from `OrderType` or the GraphQL result of
 * `OrderFields` (same names): snake_case, the discount as `Discount…Base`, the product's prices with
 * their kind's keys, and the hidden deprecated fields real Polar still returns (`amount` = net,
 * `from_balance_amount`, `product_price_id`/`product_price`, `user_id`/`user`). REST and the outbox both
 * go through here, so a webhook's `data` is what `GET /v1/orders/{id}` returns.
 */
export function orderWire(data: unknown): Wire {
  // One walk over the order; the embedded product, price and discount go straight to their own builders.
  const wire: Wire = data ? wireWith(data, ORDER_OWN) : {};
  wire.product ??= null;
  wire.product_price ??= null;
  wire.discount ??= null;
  wire.amount = wire.net_amount;
  wire.from_balance_amount = wire.applied_balance_amount;
  const customer = wire.customer ?? {};
  wire.user_id = wire.customer_id;
  wire.user = {
    id: wire.customer_id,
    email: customer.email ?? null,
    public_name: customer.name ?? customer.email ?? '',
    avatar_url: customer.avatar_url ?? null,
    github_username: null,
  };
  if (wire.subscription) wire.subscription.user_id = wire.customer_id;
  return wire;
}
