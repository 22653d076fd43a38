import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { DiscountRepository } from '../discounts/discount.repository.js';
import type { ProductPrice, SeatTiers } from '../products/product-price.entity.js';
import type { Product } from '../products/product.entity.js';
import { PriceAmountType } from '../shared/enums.js';
import type { PaidChange } from './subscription.charger.js';
import type { Subscription } from './subscription.entity.js';
import { AboveMaximumSeats, BelowMinimumSeats } from './subscription.errors.js';
import type { ProductTerms } from './transitions/state.js';

/** What the subscription bills per period as it stands. */
export function billedTerms(s: Subscription): PaidChange['from'] {
  return {
    productId: s.productId,
    amount: BigInt(s.amount),
    currency: s.currency,
    seats: s.seats,
    recurringInterval: s.recurringInterval,
    recurringIntervalCount: s.recurringIntervalCount,
  };
}

/**
 * Counts one redemption of the discount for this subscription and checks it applies: same
 * organization, live, inside its validity window, restricted to products that include the
 * subscription's, and below its redemption limit (an atomic conditional increment, so two concurrent
 * redemptions cannot both take the last one).
 */
export async function redeemDiscount(em: EntityManager, s: Subscription, discountId: string, now: Date): Promise<void> {
  const issue = (msg: string) =>
    new PolarRequestValidationError([{ type: 'value_error', loc: ['body', 'discount_id'], msg, input: discountId }]);
  const discount = await new DiscountRepository(em).findLiveOfOrganization(discountId, s.organizationId);
  if (!discount) throw issue('Discount does not exist.');
  if ((discount.startsAt && discount.startsAt > now) || (discount.endsAt && discount.endsAt < now))
    throw issue('Discount is not applicable.');
  if (discount.productIds.length && !discount.productIds.includes(s.productId))
    throw issue('Discount is not applicable to this product.');
  if (discount.type === 'fixed' && discount.currency && discount.currency !== s.currency)
    throw issue('Discount is not applicable to this currency.');
  if (!(await new DiscountRepository(em).redeemBelowLimit(discount.id)))
    throw issue('Discount has reached its redemption limit.');
}

/** What a product bills per period with its live prices (minor units, BigInt). */
export function termsOf(product: Product, prices: ProductPrice[], currentSeats: number | null): ProductTerms {
  const seatPrice = prices.find(p => p.amountType === PriceAmountType.SEAT_BASED && p.seatTiers);
  const seats = seatPrice ? Math.max(currentSeats ?? 0, seatPrice.seatTiers!.tiers[0]?.min_seats ?? 1, 1) : null;
  let amount = 0n;
  for (const price of prices) {
    switch (price.amountType) {
      case PriceAmountType.FIXED:
        amount += BigInt(price.priceAmount ?? 0n);
        break;
      case PriceAmountType.CUSTOM:
        amount += BigInt(price.presetAmount ?? price.minimumAmount ?? 0n);
        break;
      case PriceAmountType.SEAT_BASED:
        if (price.seatTiers && seats !== null) amount += seatTotal(price.seatTiers, seats);
        break;
      case PriceAmountType.FREE:
        break;
    }
  }
  return {
    productId: product.id,
    priceIds: prices.map(p => p.id),
    amount,
    currency: prices[0]?.priceCurrency ?? 'usd',
    recurringInterval: product.recurringInterval!,
    recurringIntervalCount: product.recurringIntervalCount ?? 1,
    seats,
  };
}

/**
 * The per-period total of `seats` seats: volume tiers price every seat at the tier the count falls in;
 * graduated tiers price each seat at its own tier. Outside the tiers → 400.
 */
export function seatTotal(tiers: SeatTiers, seats: number): bigint {
  const sorted = [...tiers.tiers].sort((a, b) => a.min_seats - b.min_seats);
  const minimum = sorted[0]?.min_seats ?? 1;
  if (seats < minimum) throw new BelowMinimumSeats(minimum);
  const last = sorted[sorted.length - 1];
  if (last && last.max_seats !== null && seats > last.max_seats) throw new AboveMaximumSeats(last.max_seats);
  if (tiers.seat_tier_type === 'graduated') {
    let total = 0n;
    for (const tier of sorted) {
      const upper = tier.max_seats ?? Number.MAX_SAFE_INTEGER;
      const inTier = Math.max(0, Math.min(seats, upper) - tier.min_seats + 1);
      total += BigInt(inTier) * BigInt(tier.price_per_seat);
    }
    return total;
  }
  const tier = sorted.find(t => seats >= t.min_seats && (t.max_seats === null || seats <= t.max_seats)) ?? last;
  return BigInt(seats) * BigInt(tier.price_per_seat);
}
