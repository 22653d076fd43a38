import { snakeKeys } from '../../../kit/case.js';
import { discountBaseWire } from '../discounts/discount.wire.js';
import { priceWire, productWire } from '../products/product.wire.js';
import { plain } from '../shared/wire.js';

type Wire = Record<string, any>;

/**
 * A checkout as Polar sends it (docs/polar/resources.md#checkout), from `CheckoutType` or the GraphQL result of
 * `CheckoutFields`: snake_case, products with their prices (`CheckoutProduct`: no benefits or medias
 * of ours, so empty lists), `prices` as the map product id → prices, the discount's base shape, and the
 * hidden `subtotal_amount`. `organization` (identity's, on the client endpoints) is kept as resolved.
 * The Core API's Checkout has no `organization` and no `customer_session_token`: `checkoutWire` drops
 * them; `checkoutPublicWire` keeps them.
 */
export function checkoutPublicWire(data: unknown): Wire {
  const source = data as {
    products?: object[];
    product?: object | null;
    productPrice?: object | null;
    discount?: object | null;
    customerMetadata?: Record<string, unknown>;
    organization?: object | null;
    paymentProcessorMetadata?: Record<string, string>;
  };
  const wire = snakeKeys<Wire>(plain(data));
  const products = (source.products ?? []).map(checkoutProductWire);
  wire.products = products;
  wire.product = source.product ? checkoutProductWire(source.product) : null;
  wire.product_price = source.productPrice ? priceWire(source.productPrice) : null;
  wire.prices = Object.fromEntries(products.map(p => [p.id as string, p.prices]));
  wire.discount = source.discount ? discountBaseWire(source.discount) : null;
  wire.customer_metadata = source.customerMetadata ?? {};
  wire.subtotal_amount = wire.amount;
  // The selected product's custom fields: the questions this checkout asks (docs/custom-fields.md).
  wire.attached_custom_fields = (wire.product?.attached_custom_fields as unknown[] | undefined) ?? [];
  wire.payment_processor_metadata = source.paymentProcessorMetadata ?? {};
  if (source.organization) wire.organization = snakeKeys(plain(source.organization));
  return wire;
}

export function checkoutWire(data: unknown): Wire {
  const { organization: _o, customer_session_token: _t, ...wire } = checkoutPublicWire(data);
  return wire;
}

function checkoutProductWire(product: object): Wire {
  return { ...productWire(product), benefits: [], medias: [] };
}
