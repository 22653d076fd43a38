import { allocateProportionally, discountAmount, percentageOf, percentageOfEach } from '../discounts.js';

describe('percentageOf (basis points, one rounding rule)', () => {
  it.each([
    [1999n, 1000, 200n], // 199.9
    [100n, 3333, 33n], // 33.33
    [4200n, 10_000, 4200n],
    [1n, 5000, 1n], // 0.5 → away from zero
    [3n, 5000, 2n], // 1.5
    [5n, 5000, 3n], // 2.5: away from zero, not to even
    [999n, 1, 0n],
    [5000n, 1, 1n], // 0.5
    [0n, 2500, 0n],
    [2n ** 60n, 5000, 2n ** 59n],
  ])('%s at %i bp is %s', (amount, bp, expected) => {
    expect(percentageOf(amount, bp)).toBe(expected);
  });

  it('refuses basis points outside 0..10000', () => {
    expect(() => percentageOf(100n, -1)).toThrow(RangeError);
    expect(() => percentageOf(100n, 10_001)).toThrow(RangeError);
  });
});

describe('discountAmount', () => {
  const fixed = { type: 'fixed' as const, amounts: { usd: 500n, EUR: 450n, jpy: 700n } };
  it.each([
    ['10% of $19.99', { type: 'percentage' as const, basisPoints: 1000 }, 1999n, 'usd', 200n],
    ['fixed in USD', fixed, 2000n, 'usd', 500n],
    ['fixed in EUR, key in capitals', fixed, 2000n, 'eur', 450n],
    ['fixed in JPY (zero-decimal, not scaled)', fixed, 5000n, 'JPY', 700n],
    ['fixed, no amount in GBP', fixed, 2000n, 'gbp', 0n],
    ['fixed above the price is capped', fixed, 300n, 'usd', 300n],
    ['nothing off a free price', fixed, 0n, 'usd', 0n],
    ['nothing off a negative amount', { type: 'percentage' as const, basisPoints: 5000 }, -100n, 'usd', 0n],
    ['100% takes all', { type: 'percentage' as const, basisPoints: 10_000 }, 1234n, 'kwd', 1234n],
  ])('%s', (_name, terms, amount, currency, expected) => {
    expect(discountAmount(terms, amount, currency)).toBe(expected);
  });
});

describe('allocateProportionally (largest remainder)', () => {
  it.each([
    ['even split', 100n, [1n, 1n], [50n, 50n]],
    ['a unit left over goes to the largest remainder', 100n, [1n, 1n, 1n], [34n, 33n, 33n]],
    ['by weight', 500n, [1000n, 3000n], [125n, 375n]],
    ['remainders decide', 10n, [333n, 333n, 334n], [3n, 3n, 4n]],
    ['zero weights get nothing', 7n, [0n, 5n, 0n], [0n, 7n, 0n]],
    ['no weight at all', 7n, [0n, 0n], [0n, 0n]],
    ['negative total', -100n, [1n, 1n, 1n], [-34n, -33n, -33n]],
    ['nothing to split', 0n, [3n, 4n], [0n, 0n]],
  ])('%s', (_name, total, weights, expected) => {
    expect(allocateProportionally(total, weights)).toEqual(expected);
  });

  it('always adds up to the total, never gives a line more than its share rounded up', () => {
    for (let total = 0n; total <= 200n; total += 7n) {
      const weights = [1999n, 501n, 3n, 0n, 1000n];
      const parts = allocateProportionally(total, weights);
      expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
      const sum = weights.reduce((a, b) => a + b, 0n);
      parts.forEach((part, i) => {
        expect(part * sum >= total * weights[i] - sum).toBe(true);
        expect(part * sum <= total * weights[i] + sum).toBe(true);
      });
    }
  });
});

describe('percentageOfEach', () => {
  it('rounds each line on its own (the sum may differ from the whole by < one unit per line)', () => {
    expect(percentageOfEach([5n, 5n, 0n], 5000)).toEqual([3n, 3n, 0n]);
    expect(percentageOf(10n, 5000)).toBe(5n);
  });
});
