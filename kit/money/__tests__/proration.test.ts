import { prorate, prorateChange, remainingFraction } from '../proration.js';

const DAY = 86_400_000;
const monthOf30Days = { start: new Date('2026-04-01T00:00:00Z'), end: new Date('2026-05-01T00:00:00Z') };

describe('prorateChange', () => {
  it("reproduces Polar's documented case: $5 → $20 after one day of a 30-day month", () => {
    const at = new Date(monthOf30Days.start.getTime() + DAY);
    expect(prorateChange(500n, 2000n, monthOf30Days, at)).toEqual({ credit: 483n, debit: 1933n, net: 1450n });
  });

  it.each([
    ['at the start: all of both', 0, { credit: 500n, debit: 2000n, net: 1500n }],
    ['half way', 15 * DAY, { credit: 250n, debit: 1000n, net: 750n }],
    ['at the end: nothing', 30 * DAY, { credit: 0n, debit: 0n, net: 0n }],
    ['after the end: nothing', 31 * DAY, { credit: 0n, debit: 0n, net: 0n }],
    ['before the start: all', -DAY, { credit: 500n, debit: 2000n, net: 1500n }],
  ])('%s', (_name, offset, expected) => {
    const at = new Date(monthOf30Days.start.getTime() + offset);
    expect(prorateChange(500n, 2000n, monthOf30Days, at)).toEqual(expected);
  });

  it('a downgrade is a negative net', () => {
    const at = new Date(monthOf30Days.start.getTime() + DAY);
    expect(prorateChange(2000n, 500n, monthOf30Days, at)).toEqual({ credit: 1933n, debit: 483n, net: -1450n });
  });

  it('works by the second, milliseconds ignored', () => {
    const at = new Date(monthOf30Days.start.getTime() + DAY + 999);
    expect(remainingFraction(monthOf30Days, at)).toEqual({ numerator: 29n * 86_400n, denominator: 30n * 86_400n });
  });

  it('zero-decimal currencies are not scaled: ¥1,000 → ¥3,000 after 10 days of 30', () => {
    const at = new Date(monthOf30Days.start.getTime() + 10 * DAY);
    expect(prorateChange(1000n, 3000n, monthOf30Days, at)).toEqual({ credit: 667n, debit: 2000n, net: 1333n });
  });

  it('stays exact far beyond 2^53 (amount × seconds in BigInt)', () => {
    const year = { start: new Date('2026-01-01T00:00:00Z'), end: new Date('2027-01-01T00:00:00Z') };
    const at = new Date('2026-07-02T12:00:00Z'); // exactly half of 365 days
    expect(prorate(10n ** 15n, year, at)).toBe(5n * 10n ** 14n);
    expect(prorate(10n ** 15n + 1n, year, at)).toBe(5n * 10n ** 14n + 1n); // .5 away from zero
  });

  it("a tie rounds away from zero (where Polar's proration would round to even)", () => {
    const twoSeconds = { start: new Date(0), end: new Date(2000) };
    expect(prorate(5n, twoSeconds, new Date(1000))).toBe(3n);
    expect(prorate(-5n, twoSeconds, new Date(1000))).toBe(-3n);
  });

  it('refuses a period that does not end after it starts', () => {
    expect(() => prorate(1n, { start: new Date(10_000), end: new Date(10_000) }, new Date(0))).toThrow(RangeError);
  });
});
