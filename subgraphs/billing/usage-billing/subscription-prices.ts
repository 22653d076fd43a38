import type { EntityManager } from '@mikro-orm/postgresql';
import { ProductRepository } from '../products/product.repository.js';
import { PriceAmountType } from '../shared/enums.js';

/**
 * The prices a new subscription bills: the checkout's price, then the product's live metered prices in the
 * same currency (Polar's subscription carries every price of its product; docs/usage-billing.md#checkouts).
 * The metered ones charge nothing up front: the subscription's `amount` stays the static price's.
 */
export async function subscriptionPriceIds(
  em: EntityManager,
  productId: string,
  priceId: string,
  currency: string,
): Promise<string[]> {
  const prices = (await new ProductRepository(em).pricesOf([productId])).get(productId) ?? [];
  const metered = prices.filter(
    p =>
      !p.isArchived &&
      p.id !== priceId &&
      p.amountType === PriceAmountType.METERED_UNIT &&
      p.priceCurrency.toLowerCase() === currency.toLowerCase(),
  );
  return [priceId, ...metered.map(p => p.id)];
}
