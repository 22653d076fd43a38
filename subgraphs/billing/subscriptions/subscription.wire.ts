import { snakeKeys } from '../../../kit/case.js';
import { discountBaseWire } from '../discounts/discount.wire.js';
import { priceWire, productWire } from '../products/product.wire.js';

type Wire = Record<string, any>;

/**
 * A subscription as Polar sends it (docs/polar/resources.md#subscription), from the GraphQL result of `SubscriptionFields`
 * or from `BillingSubscriptionType` itself (same field names): snake_case, prices with their kind's
 * keys, the discount as `Discount…Base`, and the hidden deprecated fields real Polar still returns
 * (`price_id` and `price` = the first price, `user_id` and `user` built from the customer). The REST
 * routes and the outbox payloads both go through here, so a webhook's `data` is what a GET returns.
 */
export function subscriptionWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(data);
  const source = data as { prices?: object[]; product?: object };
  wire.prices = (source.prices ?? []).map(priceWire);
  if (source.product) wire.product = productWire(source.product);
  const discount = (data as { discount?: object | null }).discount;
  wire.discount = discount ? discountBaseWire(discount) : null;
  const price = wire.prices[0] ?? null;
  const customer = wire.customer ?? {};
  wire.price_id = price?.id ?? null;
  wire.price = price;
  wire.user_id = customer.id ?? wire.customer_id;
  wire.user = {
    id: customer.id ?? wire.customer_id,
    email: customer.email ?? null,
    public_name: customer.name ?? customer.email ?? '',
    avatar_url: customer.avatar_url ?? null,
    github_username: null,
  };
  return wire;
}
