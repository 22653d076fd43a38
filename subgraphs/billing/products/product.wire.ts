import { benefitWire } from '../benefits/benefit.wire.js';
import { wireOf, wireWith } from '../shared/wire.js';

/**
 * Polar's wire shape of a product (docs/polar/resources.md#product-and-prices), from either a `ProductType` or the GraphQL
 * result of the operations in schema/operations/products.graphql (same field names, camelCase). Each
 * price carries exactly the keys of its `amount_type` variant plus the hidden `type` and
 * `recurring_interval`. Used by the REST adapter and for outbox payloads.
 */
const COMMON_PRICE_KEYS = [
  'created_at',
  'modified_at',
  'id',
  'source',
  'amount_type',
  'price_currency',
  'tax_behavior',
  'is_archived',
  'product_id',
  'type',
  'recurring_interval',
];
const VARIANT_KEYS: Record<string, string[]> = {
  fixed: ['price_amount'],
  custom: ['minimum_amount', 'maximum_amount', 'preset_amount'],
  seat_based: ['seat_tiers', 'price_per_seat'],
  metered_unit: ['cap_amount', 'meter_id', 'meter', 'unit_amount'],
};

/**
 * A price as Polar answers it. A stored `free` price goes out as a `fixed` price of 0: Polar has no `free`
 * type any more (docs/polar/resources.md#product-and-prices), and SDK 1.0.1's price unions have no
 * member for it. It is still accepted on input.
 */
export function priceWire(price: object): Record<string, unknown> {
  const wire = wireOf(price) as Record<string, unknown>;
  if (wire.amount_type === 'free') Object.assign(wire, { amount_type: 'fixed', price_amount: 0 });
  const keys = [...COMMON_PRICE_KEYS, ...(VARIANT_KEYS[wire.amount_type as string] ?? [])];
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = wire[key] ?? null;
  if (wire.amount_type === 'custom' && out.minimum_amount === null) out.minimum_amount = 0;
  return out;
}

const PRODUCT_OWN = { organization: null, prices: null, benefits: null };

export function productWire(product: object): Record<string, unknown> {
  const { prices, benefits } = product as { prices?: object[] | null; benefits?: object[] | null };
  const wire = wireWith(product, PRODUCT_OWN);
  wire.prices = (prices ?? []).map(priceWire);
  wire.benefits = (benefits ?? []).map(benefitWire);
  return wire;
}

/** `DiscountProduct`: a product without prices, benefits, medias, custom fields and `is_deletable`. */
export function discountProductWire(product: object): Record<string, unknown> {
  const {
    prices: _p,
    benefits: _b,
    medias: _m,
    attached_custom_fields: _a,
    is_deletable: _d,
    ...rest
  } = productWire(product);
  return rest;
}
