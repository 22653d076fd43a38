import type { EntityManager } from '@mikro-orm/postgresql';
import { snakeKeys } from '../../../kit/case.js';
import { Customer } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import { Discount } from '../discounts/discount.entity.js';
import { recordEvent } from '../events/record-event.js';
import { ProductPrice } from '../products/product-price.entity.js';
import { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { ProductPriceType, ProductType } from '../products/product.type.js';
import type { Subscription } from './subscription.entity.js';
import { BillingSubscriptionType } from './subscription.type.js';

/**
 * Writes the outbox rows of one change of a subscription (`subscription.updated` first, then the
 * transition's own kinds), inside the caller's transaction. Injected into the write use cases so they
 * do not depend on how payloads are rendered.
 */
export type SubscriptionChangeRecorder = (
  em: EntityManager,
  subscription: Subscription,
  types: readonly string[],
  now: Date,
) => Promise<void>;

/** What a subscription event embeds, already loaded. */
export interface SubscriptionPayloadParts {
  subscription: Subscription;
  customer: Customer | null;
  product: Product | null;
  /** The product's live prices (the embedded product's `prices`). */
  productPrices: readonly ProductPrice[];
  /** The prices the subscription bills, in its order. */
  prices: readonly ProductPrice[];
  discount: Discount | null;
}

/**
 * The webhook `data` of a subscription event (polar-api.md §6): the subscription as the wire shows it,
 * with its customer, product, prices and discount embedded. Shared by create and every later change.
 */
export function subscriptionPayload(p: SubscriptionPayloadParts): Record<string, unknown> {
  const { product } = p;
  return snakeKeys<Record<string, unknown>>({
    ...BillingSubscriptionType.fromEntity(p.subscription),
    priceIds: undefined,
    customer: p.customer ? CustomerType.fromEntity(p.customer) : null,
    product: product ? ProductType.fromEntity(product, p.productPrices) : null,
    prices: product ? p.prices.map(price => ProductPriceType.fromEntity(price, product)) : [],
    discount: p.discount ? discountPayload(p.discount) : null,
  });
}

/**
 * The outbox rows of one change (`subscription.updated`, `.canceled`, `.uncanceled`, `.revoked`), added to
 * the caller's unit of work so they commit with the change or not at all. The embedded rows are loaded
 * once per change, not once per row. The outbox is read in (created_at, id) order: the rows of one change
 * are a millisecond apart so a consumer sees `subscription.updated` before `.canceled` before `.revoked`,
 * as Polar sends them.
 */
export const recordSubscriptionEvents: SubscriptionChangeRecorder = async (em, s, types, now) => {
  const [customer, product, prices, discount, livePrices] = await Promise.all([
    em.findOne(Customer, { id: s.customerId }),
    em.findOne(Product, { id: s.productId }),
    new ProductRepository(em).findPricesByIds(s.priceIds),
    s.discountId ? em.findOne(Discount, { id: s.discountId }) : Promise.resolve(null),
    new ProductRepository(em).pricesOf([s.productId]),
  ]);
  const ordered = s.priceIds.map(id => prices.find(p => p.id === id)).filter((p): p is ProductPrice => !!p);
  const payload = subscriptionPayload({
    subscription: s,
    customer,
    product,
    productPrices: livePrices.get(s.productId) ?? [],
    prices: ordered,
    discount,
  });
  for (const [i, type] of types.entries())
    recordEvent(em, s.organizationId, type, payload, new Date(now.getTime() + i));
};

/** Polar's `Discount…Base` (a discount without its products), camelCase before `snakeKeys`. */
function discountPayload(d: Discount): Record<string, unknown> {
  return {
    id: d.id,
    createdAt: d.createdAt,
    modifiedAt: d.modifiedAt,
    name: d.name,
    code: d.code,
    startsAt: d.startsAt,
    endsAt: d.endsAt,
    maxRedemptions: d.maxRedemptions,
    redemptionsCount: d.redemptionsCount,
    duration: d.duration,
    durationInMonths: d.durationInMonths,
    type: d.type,
    ...(d.type === 'fixed' ? { amount: d.amount, currency: d.currency } : { basisPoints: d.basisPoints }),
    metadata: d.metadata,
    organizationId: d.organizationId,
  };
}
