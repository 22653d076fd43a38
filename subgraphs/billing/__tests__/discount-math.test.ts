import { discountAmountFor } from '../discounts/discount.validation.js';

/** The amount a discount takes off a price, in minor units (bigint throughout). */
describe('discountAmountFor', () => {
  it.each([
    ['percentage 10% of 1999', { type: 'percentage', amount: null, basisPoints: 1000 }, 1999n, 200n],
    ['percentage 33.33% of 100', { type: 'percentage', amount: null, basisPoints: 3333 }, 100n, 33n],
    ['percentage 100%', { type: 'percentage', amount: null, basisPoints: 10_000 }, 4200n, 4200n],
    ['fixed under the price', { type: 'fixed', amount: 500n, basisPoints: null }, 2000n, 500n],
    ['fixed above the price is capped', { type: 'fixed', amount: 5000n, basisPoints: null }, 2000n, 2000n],
    ['nothing off a free price', { type: 'fixed', amount: 500n, basisPoints: null }, 0n, 0n],
    ['beyond 2^53', { type: 'percentage', amount: null, basisPoints: 5000 }, 2n ** 60n, 2n ** 59n],
  ])('%s', (_name, discount, price, expected) => {
    expect(discountAmountFor(discount, price)).toBe(expected);
  });
});
