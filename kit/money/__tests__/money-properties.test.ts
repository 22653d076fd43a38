import fc from 'fast-check';
import { allocateProportionally, percentageOf } from '../discounts.js';
import { parseMajorUnits, toDecimalString } from '../format.js';
import { prorate, prorateChange } from '../proration.js';
import { divideRounded } from '../rounding.js';

/** Invariants of the money functions over random inputs (fast-check), beside the tables. */
const amount = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n });
const positive = fc.bigInt({ min: 1n, max: 10n ** 12n });

describe('money invariants', () => {
  it('rounding is within half a unit of the exact quotient, and symmetric', () => {
    fc.assert(
      fc.property(amount, positive, (n, d) => {
        const q = divideRounded(n, d);
        // |q·d − n| ≤ d/2  ⇔  |2(q·d − n)| ≤ d
        const error = 2n * (q * d - n);
        return (error < 0n ? -error : error) <= d && divideRounded(-n, d) === -q;
      }),
    );
  });

  it('a split adds up to the total exactly', () => {
    fc.assert(
      fc.property(
        amount,
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const parts = allocateProportionally(total, weights);
          const sum = parts.reduce((a, b) => a + b, 0n);
          return weights.some(w => w > 0n) ? sum === total : sum === 0n;
        },
      ),
    );
  });

  it('a percentage never exceeds the amount and 100% is all of it', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 10_000 }), (value, bp) => {
        const off = percentageOf(value, bp);
        return off >= 0n && off <= value && percentageOf(value, 10_000) === value;
      }),
    );
  });

  it('a proration is never more than the whole amount, and a change nets debit minus credit', () => {
    const start = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 1, max: 366 * 86_400 }),
        fc.integer({ min: -86_400, max: 400 * 86_400 }),
        (from, to, lengthSeconds, offsetSeconds) => {
          const period = { start: new Date(start), end: new Date(start + lengthSeconds * 1000) };
          const at = new Date(start + offsetSeconds * 1000);
          const change = prorateChange(from, to, period, at);
          return prorate(from, period, at) <= from && change.net === change.debit - change.credit;
        },
      ),
    );
  });

  it('printing and parsing an amount gives it back, in every exponent', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom('usd', 'jpy', 'kwd', 'eur', 'krw', 'bhd'), (value, currency) => {
        return parseMajorUnits(toDecimalString(value, currency), currency) === value;
      }),
    );
  });
});
