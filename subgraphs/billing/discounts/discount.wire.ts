import { discountProductWire } from '../products/product.wire.js';
import { wireOf } from '../shared/wire.js';

/**
 * Polar's wire shape of a discount (docs/polar/resources.md#discount), from a `DiscountType` or the GraphQL result
 * of schema/operations/discounts.graphql: exactly the keys of its kind. `discountBaseWire` is the
 * `Discount…Base` shape embedded in subscriptions and orders (no `products`).
 */
const COMMON = [
  'created_at',
  'modified_at',
  'id',
  'metadata',
  'name',
  'code',
  'starts_at',
  'ends_at',
  'max_redemptions',
  'max_redemptions_per_customer',
  'redemptions_count',
  'organization_id',
];

export function discountBaseWire(discount: object): Record<string, unknown> {
  const wire = wireOf(discount) as Record<string, unknown>;
  const out: Record<string, unknown> = { duration: wire.duration };
  if (wire.duration === 'repeating') out.duration_in_months = wire.duration_in_months ?? null;
  out.type = wire.type;
  if (wire.type === 'fixed') {
    out.amount = wire.amount ?? 0;
    out.currency = wire.currency ?? 'usd';
    out.amounts = Object.fromEntries(
      ((wire.amounts as { currency: string; amount: number }[] | undefined) ?? []).map(a => [a.currency, a.amount]),
    );
  } else {
    out.basis_points = wire.basis_points;
  }
  for (const key of COMMON) out[key] = wire[key] ?? (key === 'metadata' ? {} : null);
  return out;
}

export function discountWire(discount: object): Record<string, unknown> {
  const products = ((discount as { products?: object[] }).products ?? []).map(discountProductWire);
  return { ...discountBaseWire(discount), products };
}
