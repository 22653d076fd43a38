import type { BillingCadence } from '../../time/calendar.js';
import { type DiscountDuration, discountAppliesTo, discountClearedAt } from '../discount-duration.js';

const at = (iso: string) => new Date(iso);
const first = at('2026-01-31T00:00:00Z');
const monthly: BillingCadence = { interval: 'month', count: 1, anchor: first };
const yearly: BillingCadence = { interval: 'year', count: 1, anchor: first };

describe('does the discount apply to the period starting at T (monthly from 31 January)', () => {
  const periodStarts = ['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2027-01-31'];
  it.each<[string, DiscountDuration, boolean[]]>([
    ['once: the first period only', { duration: 'once' }, [true, false, false, false, false]],
    ['forever: every period', { duration: 'forever' }, [true, true, true, true, true]],
    [
      'repeating 3 months: three periods',
      { duration: 'repeating', durationInMonths: 3 },
      [true, true, true, false, false],
    ],
    [
      'repeating 1 month: like once',
      { duration: 'repeating', durationInMonths: 1 },
      [true, false, false, false, false],
    ],
  ])('%s', (_name, discount, expected) => {
    expect(periodStarts.map(start => discountAppliesTo(discount, first, at(`${start}T00:00:00Z`)))).toEqual(expected);
  });
});

describe('when is it cleared', () => {
  it.each<[string, DiscountDuration, BillingCadence, string | null]>([
    ['once, monthly: at the first renewal', { duration: 'once' }, monthly, '2026-02-28T00:00:00.000Z'],
    [
      'repeating 3, monthly: at the 3rd renewal',
      { duration: 'repeating', durationInMonths: 3 },
      monthly,
      '2026-04-30T00:00:00.000Z',
    ],
    [
      'repeating 3, yearly: at the first renewal',
      { duration: 'repeating', durationInMonths: 3 },
      yearly,
      '2027-01-31T00:00:00.000Z',
    ],
    [
      'repeating 13, yearly: at the second renewal',
      { duration: 'repeating', durationInMonths: 13 },
      yearly,
      '2028-01-31T00:00:00.000Z',
    ],
    ['forever: never', { duration: 'forever' }, monthly, null],
  ])('%s', (_name, discount, cadence, expected) => {
    const cleared = discountClearedAt(discount, first, cadence);
    expect(cleared?.toISOString() ?? null).toBe(expected);
    if (cleared) expect(discountAppliesTo(discount, first, cleared)).toBe(false);
  });
});
