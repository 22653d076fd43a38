import { snakeKeys } from '../../../kit/case.js';
import { discountBaseWire } from '../discounts/discount.wire.js';
import { priceWire, productWire } from '../products/product.wire.js';
import { plain } from '../shared/wire.js';

type Wire = Record<string, any>;

/**
 * An order as Polar sends it (polar-api.md §3.5), from `OrderType` or the GraphQL result of
 * `OrderFields` (same names): snake_case, the discount as `Discount…Base`, the product's prices with
 * their kind's keys, and the hidden deprecated fields real Polar still returns (`amount` = net,
 * `from_balance_amount`, `product_price_id`/`product_price`, `user_id`/`user`). REST and the outbox both
 * go through here, so a webhook's `data` is what `GET /v1/orders/{id}` returns.
 */
export function orderWire(data: unknown): Wire {
  const { organization: _o, organizationId: _oi, ...rest } = (plain(data) ?? {}) as Wire;
  const wire = snakeKeys<Wire>(rest);
  const source = data as { product?: object | null; productPrice?: object | null; discount?: object | null };
  wire.product = source.product ? productWire(source.product) : null;
  wire.product_price = source.productPrice ? priceWire(source.productPrice) : null;
  wire.discount = source.discount ? discountBaseWire(source.discount) : null;
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
