import { PolarRequestValidationError } from '../../../../kit/errors.js';
import { DiscountType, PriceAmountType } from '../../shared/enums.js';
import {
  checkoutAmounts,
  checkSeats,
  type DiscountOffer,
  discountApplicable,
  type PriceTerms,
  priceAmount,
  type SeatTiers,
  seatBasedAmount,
  seatBounds,
} from '../checkout-amounts.js';

const NOW = new Date('2026-03-10T12:00:00.000Z');

const price = (overrides: Partial<PriceTerms>): PriceTerms => ({
  amountType: PriceAmountType.FIXED,
  priceAmount: null,
  minimumAmount: null,
  maximumAmount: null,
  presetAmount: null,
  seatTiers: null,
  ...overrides,
});

const discount = (overrides: Partial<DiscountOffer>): DiscountOffer => ({
  type: DiscountType.PERCENTAGE,
  amount: null,
  currency: null,
  basisPoints: 1000,
  startsAt: null,
  endsAt: null,
  maxRedemptions: null,
  redemptionsCount: 0,
  productIds: [],
  deletedAt: null,
  ...overrides,
});

const VOLUME: SeatTiers = {
  seat_tier_type: 'volume',
  tiers: [
    { min_seats: 1, max_seats: 4, price_per_seat: 1000 },
    { min_seats: 5, max_seats: null, price_per_seat: 800 },
  ],
};
const GRADUATED: SeatTiers = { ...VOLUME, seat_tier_type: 'graduated' };

describe('seatBasedAmount', () => {
  it.each([
    [VOLUME, 1, 1000n],
    [VOLUME, 4, 4000n],
    [VOLUME, 5, 4000n],
    [VOLUME, 10, 8000n],
    [GRADUATED, 5, 4800n],
    [GRADUATED, 10, 8800n],
    [null, 3, 0n],
  ])('tiers %j × %i seats = %s', (seatTiers, seats, expected) => {
    expect(seatBasedAmount({ seatTiers }, seats)).toBe(expected);
  });
});

describe('seatBounds and checkSeats', () => {
  it.each([
    [VOLUME, { minSeats: null, maxSeats: null }, { min: 1, max: null }],
    [VOLUME, { minSeats: 2, maxSeats: 6 }, { min: 2, max: 6 }],
  ])('tiers %j narrowed by %j → %j', (seatTiers, checkout, expected) => {
    expect(seatBounds({ seatTiers }, checkout)).toEqual(expected);
  });

  it.each([
    [1, { min: 1, max: null }, false],
    [0, { min: 1, max: null }, true],
    [7, { min: 1, max: 6 }, true],
    [6, { min: 1, max: 6 }, false],
  ])('%i seats within %j: refused %s', (seats, bounds, refused) => {
    const check = () => checkSeats(seats, bounds);
    if (refused) expect(check).toThrow(PolarRequestValidationError);
    else expect(check).not.toThrow();
  });
});

describe('priceAmount', () => {
  it.each([
    ['fixed', price({ priceAmount: 1500n }), {}, 1500n],
    ['free', price({ amountType: PriceAmountType.FREE }), {}, 0n],
    ['seat-based', price({ amountType: PriceAmountType.SEAT_BASED, seatTiers: VOLUME }), { seats: 5 }, 4000n],
    ['custom, asked', price({ amountType: PriceAmountType.CUSTOM, minimumAmount: 500n }), { amount: 700n }, 700n],
    ['custom, preset', price({ amountType: PriceAmountType.CUSTOM, presetAmount: 900n }), {}, 900n],
    ['custom, minimum', price({ amountType: PriceAmountType.CUSTOM, minimumAmount: 500n }), {}, 500n],
    ['custom, zero', price({ amountType: PriceAmountType.CUSTOM, minimumAmount: 500n }), { amount: 0n }, 0n],
  ])('%s', (_what, p, requested, expected) => {
    expect(priceAmount(p, requested)).toBe(expected);
  });

  it.each([
    [{ minimumAmount: 500n }, 100n],
    [{ minimumAmount: 500n, maximumAmount: 1000n }, 1001n],
  ])('custom bounds %j refuse %s', (bounds, amount) => {
    expect(() => priceAmount(price({ amountType: PriceAmountType.CUSTOM, ...bounds }), { amount })).toThrow(
      PolarRequestValidationError,
    );
  });
});

describe('discountApplicable', () => {
  it.each([
    ['a plain percentage', discount({}), true],
    ['deleted', discount({ deletedAt: NOW }), false],
    ['not started', discount({ startsAt: new Date('2026-04-01T00:00:00.000Z') }), false],
    ['ended', discount({ endsAt: NOW }), false],
    ['redeemed up to its limit', discount({ maxRedemptions: 2, redemptionsCount: 2 }), false],
    ['for another product', discount({ productIds: ['product-b'] }), false],
    ['for this product', discount({ productIds: ['product-a'] }), true],
    ['fixed, another currency', discount({ type: DiscountType.FIXED, amount: 100n, currency: 'eur' }), false],
    ['fixed, this currency', discount({ type: DiscountType.FIXED, amount: 100n, currency: 'USD' }), true],
  ])('%s → %s', (_what, d, expected) => {
    expect(discountApplicable(d, 'product-a', 'usd', NOW)).toBe(expected);
  });
});

describe('checkoutAmounts', () => {
  it.each([
    [1000n, null, { amount: 1000n, discountAmount: 0n, netAmount: 1000n, taxAmount: 0n, totalAmount: 1000n }],
    [1000n, discount({ basisPoints: 2500 }), { amount: 1000n, discountAmount: 250n, netAmount: 750n }],
    [
      1000n,
      discount({ type: DiscountType.FIXED, amount: 300n, currency: 'usd' }),
      { discountAmount: 300n, netAmount: 700n, totalAmount: 700n },
    ],
    [
      200n,
      discount({ type: DiscountType.FIXED, amount: 300n, currency: 'usd' }),
      { discountAmount: 200n, netAmount: 0n },
    ],
  ])('%s with %j', (amount, d, expected) => {
    expect(checkoutAmounts(amount, 'usd', d)).toMatchObject(expected);
  });
});
