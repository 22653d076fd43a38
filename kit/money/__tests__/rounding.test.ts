import { divideRounded, scaleRounded } from '../rounding.js';

/** The one rounding rule: nearest integer, halves away from zero, the same for credits and debits. */
describe('divideRounded (half away from zero)', () => {
  it.each([
    [5n, 2n, 3n],
    [-5n, 2n, -3n],
    [7n, 2n, 4n],
    [-7n, 2n, -4n],
    [4n, 3n, 1n],
    [5n, 3n, 2n],
    [-4n, 3n, -1n],
    [-5n, 3n, -2n],
    [0n, 7n, 0n],
    [10n, 5n, 2n],
    [1n, 3n, 0n],
    [2n, 3n, 1n],
    [5n, -2n, -3n],
    [-5n, -2n, 3n],
    [2n ** 70n + 1n, 2n, 2n ** 69n + 1n],
  ])('%s / %s = %s', (numerator, denominator, expected) => {
    expect(divideRounded(numerator, denominator)).toBe(expected);
  });

  it('is symmetric: a credit rounds to the negation of the same debit', () => {
    for (let n = -1000n; n <= 1000n; n += 1n)
      for (const d of [2n, 3n, 7n, 30n, 10_000n]) expect(divideRounded(-n, d)).toBe(-divideRounded(n, d));
  });

  it('refuses a division by zero', () => {
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError);
  });

  it('scaleRounded multiplies before it divides, so nothing is lost on the way', () => {
    expect(scaleRounded(500n, 29n, 30n)).toBe(483n);
    expect(scaleRounded(2n ** 62n, 1n, 3n)).toBe((2n ** 62n + 1n) / 3n);
  });
});
