import type { EntityManager } from '@mikro-orm/postgresql';
import { snakeKeys } from '../../../kit/case.js';
import { Customer } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import { Discount } from '../discounts/discount.entity.js';
import { recordEvent } from '../events/record-event.js';
import { ProductPrice } from '../products/product-price.entity.js';
import { Product } from '../products/product.entity.js';
import { ProductPriceType, ProductType } from '../products/product.type.js';
import type { Subscription } from './subscription.entity.js';
import { BillingSubscriptionType } from './subscription.type.js';
import type { SubscriptionEventRecorder } from './update-subscription.js';

/**
 * The outbox row of a subscription event (`subscription.updated`, `.canceled`, `.uncanceled`,
 * `.revoked`): the subscription as the wire shows it after the change, with its customer, product,
 * prices and discount embedded (webhook `data`, polar-api.md §6), added to the caller's unit of work
 * so it commits with the change or not at all.
 */
export const recordSubscriptionEvent: SubscriptionEventRecorder = async (em: EntityManager, type: string, s: Subscription, now: Date) => {
  const [customer, product, prices, discount] = await Promise.all([
    em.findOne(Customer, { id: s.customerId }),
    em.findOne(Product, { id: s.productId }),
    s.priceIds.length ? em.find(ProductPrice, { id: { $in: s.priceIds } }) : Promise.resolve([]),
    s.discountId ? em.findOne(Discount, { id: s.discountId }) : Promise.resolve(null),
  ]);
  const liveProductPrices = product ? await em.find(ProductPrice, { productId: product.id, isArchived: false }, { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }) : [];
  const ordered = s.priceIds.map(id => prices.find(p => p.id === id)).filter((p): p is ProductPrice => !!p);
  const payload = snakeKeys<Record<string, unknown>>({
    ...BillingSubscriptionType.fromEntity(s),
    priceIds: undefined,
    customer: customer ? CustomerType.fromEntity(customer) : null,
    product: product ? ProductType.fromEntity(product, liveProductPrices) : null,
    prices: product ? ordered.map(p => ProductPriceType.fromEntity(p, product)) : [],
    discount: discount ? discountPayload(discount) : null,
  });
  recordEvent(em, s.organizationId, type, payload, now);
};

/** Polar's `Discount…Base` (a discount without its products), camelCase before `snakeKeys`. */
function discountPayload(d: Discount): Record<string, unknown> {
  return {
    id: d.id, createdAt: d.createdAt, modifiedAt: d.modifiedAt, name: d.name, code: d.code, startsAt: d.startsAt, endsAt: d.endsAt,
    maxRedemptions: d.maxRedemptions, redemptionsCount: d.redemptionsCount, duration: d.duration, durationInMonths: d.durationInMonths,
    type: d.type, ...(d.type === 'fixed' ? { amount: d.amount, currency: d.currency } : { basisPoints: d.basisPoints }),
    metadata: d.metadata, organizationId: d.organizationId,
  };
}
