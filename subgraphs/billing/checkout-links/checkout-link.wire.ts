import { snakeKeys } from '../../../kit/case.js';
import { discountBaseWire } from '../discounts/discount.wire.js';
import { productWire } from '../products/product.wire.js';
import { plain } from '../shared/wire.js';

type Wire = Record<string, any>;

/**
 * A checkout link as Polar sends it (CheckoutLink), from `CheckoutLinkType` or the GraphQL result of
 * `CheckoutLinkFields`: snake_case, products as `CheckoutLinkProduct` (no benefits or medias of ours:
 * empty lists), the discount's base shape (`CheckoutLinkDiscount`), and the trial fields.
 */
export function checkoutLinkWire(data: unknown): Wire {
  const source = data as { products?: object[]; discount?: object | null };
  const wire = snakeKeys<Wire>(plain(data));
  wire.products = (source.products ?? []).map(p => ({ ...productWire(p), benefits: [], medias: [] }));
  wire.discount = source.discount ? discountBaseWire(source.discount) : null;
  wire.metadata = (data as { metadata?: object }).metadata ?? {};
  return wire;
}
