import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { normalizeCurrency } from '../../../kit/money/currency.js';
import { discountAmount } from '../../../kit/money/discounts.js';
import { type DiscountType, PriceAmountType } from '../shared/enums.js';

/*
 * A checkout's amounts. Pure over plain values: a product price row and a discount row satisfy the
 * shapes below, and nothing here reads or writes the database.
 */

/** A seat-based price's tiers (the `seat_tiers` of a product price). */
export interface SeatTiers {
  seat_tier_type: 'volume' | 'graduated';
  tiers: { min_seats: number; max_seats: number | null; price_per_seat: number }[];
}

/** What the amounts read of a product price. */
export interface PriceTerms {
  amountType: PriceAmountType;
  priceAmount: bigint | null;
  minimumAmount: bigint | null;
  maximumAmount: bigint | null;
  presetAmount: bigint | null;
  seatTiers: SeatTiers | null;
}

/** What the amounts read of a discount. */
export interface DiscountOffer {
  type: DiscountType | 'fixed' | 'percentage';
  amount: bigint | null;
  currency: string | null;
  basisPoints: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxRedemptions: number | null;
  redemptionsCount: number;
  productIds: string[] | null;
  deletedAt: Date | null;
}

/** What a checkout costs: `net = amount − discount`, `total = net + tax` (tax is 0 until tax exists). */
export interface CheckoutAmounts {
  amount: bigint;
  discountAmount: bigint;
  netAmount: bigint;
  taxAmount: bigint;
  totalAmount: bigint;
}

const issue = (field: string, msg: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc: ['body', field],
  msg,
  input,
});

/** The per-seat price for `seats` (volume: the tier the count falls in; graduated: each tier its share). */
export function seatBasedAmount(price: Pick<PriceTerms, 'seatTiers'>, seats: number): bigint {
  const tiers = price.seatTiers?.tiers ?? [];
  if (!tiers.length) return 0n;
  if (price.seatTiers?.seat_tier_type === 'graduated') {
    let total = 0n;
    for (const tier of tiers) {
      const upper = tier.max_seats ?? Number.MAX_SAFE_INTEGER;
      const inTier = Math.max(0, Math.min(seats, upper) - tier.min_seats + 1);
      total += BigInt(inTier) * BigInt(tier.price_per_seat);
    }
    return total;
  }
  const tier = tiers.find(t => seats >= t.min_seats && (t.max_seats == null || seats <= t.max_seats)) ?? tiers.at(-1)!;
  return BigInt(seats) * BigInt(tier.price_per_seat);
}

/**
 * The seats a seat-based price sells (Polar's `get_minimum_seats` / `get_maximum_seats`: its first
 * tier's minimum, 1 when unset, and its last tier's maximum, open when unset), narrowed by the
 * checkout's own `min_seats` / `max_seats`.
 */
export function seatBounds(
  price: Pick<PriceTerms, 'seatTiers'>,
  checkout: { minSeats: number | null; maxSeats: number | null },
): { min: number; max: number | null } {
  const tiers = price.seatTiers?.tiers ?? [];
  let min = tiers[0]?.min_seats ?? 1;
  let max = tiers.at(-1)?.max_seats ?? null;
  if (checkout.minSeats != null) min = Math.max(min, checkout.minSeats);
  if (checkout.maxSeats != null) max = max == null ? checkout.maxSeats : Math.min(max, checkout.maxSeats);
  return { min, max };
}

/** 422 at `seats` outside the bounds, with Polar's items (`greater_than_equal` / `less_than_equal`). */
export function checkSeats(seats: number, bounds: { min: number; max: number | null }): void {
  if (seats < bounds.min)
    throw new PolarRequestValidationError([
      {
        type: 'greater_than_equal',
        loc: ['body', 'seats'],
        msg: `Minimum ${bounds.min} seats required.`,
        input: seats,
        ctx: { ge: bounds.min },
      },
    ]);
  if (bounds.max != null && seats > bounds.max)
    throw new PolarRequestValidationError([
      {
        type: 'less_than_equal',
        loc: ['body', 'seats'],
        msg: `Maximum ${bounds.max} seats allowed.`,
        input: seats,
        ctx: { le: bounds.max },
      },
    ]);
}

/**
 * The amount before discount for a price: fixed → its amount; free → 0; custom → the customer's
 * `amount` (or the preset, else the minimum) within the price's bounds (422 at `amount` otherwise);
 * seat-based → seats × the tier's per-seat price.
 */
export function priceAmount(price: PriceTerms, requested: { amount?: bigint | null; seats?: number | null }): bigint {
  switch (price.amountType) {
    case PriceAmountType.FIXED:
      return BigInt(price.priceAmount ?? 0n);
    case PriceAmountType.FREE:
      return 0n;
    case PriceAmountType.SEAT_BASED:
      return seatBasedAmount(price, requested.seats ?? 1);
    case PriceAmountType.CUSTOM: {
      const min = BigInt(price.minimumAmount ?? 0n);
      const max = price.maximumAmount == null ? null : BigInt(price.maximumAmount);
      const amount = requested.amount ?? (price.presetAmount != null ? BigInt(price.presetAmount) : min);
      // Polar accepts 0 (a free contribution) or anything within the bounds.
      if (amount !== 0n && (amount < min || (max !== null && amount > max))) {
        const bounds = max === null ? `at least ${min}` : `between ${min} and ${max}`;
        throw new PolarRequestValidationError([issue('amount', `Amount must be ${bounds}.`, Number(amount))]);
      }
      return amount;
    }
    default:
      return 0n;
  }
}

/**
 * Whether a discount can be applied now to this product, in this currency: its validity window, its
 * redemption limit, its product restriction, and a fixed amount in the checkout's currency.
 */
export function discountApplicable(discount: DiscountOffer, productId: string, currency: string, now: Date): boolean {
  if (discount.deletedAt) return false;
  if (discount.startsAt && new Date(discount.startsAt) > now) return false;
  if (discount.endsAt && new Date(discount.endsAt) <= now) return false;
  if (discount.maxRedemptions != null && discount.redemptionsCount >= discount.maxRedemptions) return false;
  if (discount.productIds?.length && !discount.productIds.includes(productId)) return false;
  if (discount.type === 'fixed' && normalizeCurrency(discount.currency ?? 'usd') !== normalizeCurrency(currency))
    return false;
  return true;
}

/** The checkout's amounts for a base amount and an (already applicable) discount. */
export function checkoutAmounts(amount: bigint, currency: string, discount: DiscountOffer | null): CheckoutAmounts {
  const off = discount
    ? discountAmount(
        discount.type === 'fixed'
          ? { type: 'fixed', amounts: { [discount.currency ?? currency]: BigInt(discount.amount ?? 0n) } }
          : { type: 'percentage', basisPoints: discount.basisPoints ?? 0 },
        amount,
        currency,
      )
    : 0n;
  const net = amount - off;
  return { amount, discountAmount: off, netAmount: net, taxAmount: 0n, totalAmount: net };
}
