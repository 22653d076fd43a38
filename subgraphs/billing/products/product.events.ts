import type { OutboxEvent } from '../../../kit/database/write/write-frame.js';
import type { AttachedCustomFieldView } from '../custom-fields/product-custom-fields.js';
import type { ProductPrice } from './product-price.entity.js';
import type { Product } from './product.entity.js';
import { ProductType } from './product.type.js';
import { productWire } from './product.wire.js';

/** The webhook `data` of a product event: the product with the prices it shows, on the wire. */
export function productEventPayload(
  product: Product,
  prices: readonly ProductPrice[],
  isDeletable = true,
  attached: readonly AttachedCustomFieldView[] = [],
): Record<string, unknown> {
  return productWire(ProductType.fromEntity(product, [...prices], [], isDeletable, attached));
}

/** `product.created` / `product.updated` for the write frame (kit/database/write). */
export function productEvent(
  type: 'product.created' | 'product.updated',
  product: Product,
  prices: readonly ProductPrice[],
  at: Date,
  isDeletable = true,
  attached: readonly AttachedCustomFieldView[] = [],
): OutboxEvent {
  return {
    organizationId: product.organizationId,
    type,
    payload: productEventPayload(product, prices, isDeletable, attached),
    at,
  };
}
