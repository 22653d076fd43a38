import {
  addMonthsClamped,
  type BillingCadence,
  boundariesCrossed,
  nextPeriodAfter,
  nextPeriodEndAfter,
  nthPeriodEnd,
  periodContaining,
} from '../calendar.js';

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe('a year of monthly renewals from 31 January of a leap year', () => {
  const monthly: BillingCadence = { interval: 'month', count: 1, anchor: at('2028-01-31T09:30:00.000Z') };

  it('bills on the last day of shorter months and returns to the 31st', () => {
    const ends = Array.from({ length: 12 }, (_, i) => iso(nthPeriodEnd(monthly, i + 1)));
    expect(ends).toEqual([
      '2028-02-29T09:30:00.000Z',
      '2028-03-31T09:30:00.000Z',
      '2028-04-30T09:30:00.000Z',
      '2028-05-31T09:30:00.000Z',
      '2028-06-30T09:30:00.000Z',
      '2028-07-31T09:30:00.000Z',
      '2028-08-31T09:30:00.000Z',
      '2028-09-30T09:30:00.000Z',
      '2028-10-31T09:30:00.000Z',
      '2028-11-30T09:30:00.000Z',
      '2028-12-31T09:30:00.000Z',
      '2029-01-31T09:30:00.000Z',
    ]);
  });

  it('the same twelve ends are the boundaries crossed by moving a clock through the year, in order', () => {
    const crossed = boundariesCrossed(monthly, monthly.anchor, at('2029-01-31T09:30:00.000Z')).map(iso);
    expect(crossed).toEqual(Array.from({ length: 12 }, (_, i) => iso(nthPeriodEnd(monthly, i + 1))));
  });

  it('the next February (a common year) ends on the 28th, then March on the 31st again', () => {
    expect(iso(nthPeriodEnd(monthly, 13))).toBe('2029-02-28T09:30:00.000Z');
    expect(iso(nthPeriodEnd(monthly, 14))).toBe('2029-03-31T09:30:00.000Z');
  });
});

describe('nthPeriodEnd', () => {
  it.each<[string, BillingCadence, number, string]>([
    ['daily', { interval: 'day', count: 1, anchor: at('2026-03-28T12:00:00Z') }, 3, '2026-03-31T12:00:00.000Z'],
    ['every 3 days', { interval: 'day', count: 3, anchor: at('2026-12-30T00:00:00Z') }, 1, '2027-01-02T00:00:00.000Z'],
    ['weekly', { interval: 'week', count: 1, anchor: at('2026-02-26T08:00:00Z') }, 1, '2026-03-05T08:00:00.000Z'],
    [
      'every 2 weeks',
      { interval: 'week', count: 2, anchor: at('2026-01-01T00:00:00Z') },
      2,
      '2026-01-29T00:00:00.000Z',
    ],
    [
      'monthly on the 30th in February',
      { interval: 'month', count: 1, anchor: at('2027-01-30T00:00:00Z') },
      1,
      '2027-02-28T00:00:00.000Z',
    ],
    [
      'quarterly from 31 August',
      { interval: 'month', count: 3, anchor: at('2026-08-31T00:00:00Z') },
      1,
      '2026-11-30T00:00:00.000Z',
    ],
    [
      'quarterly from 31 August, twice',
      { interval: 'month', count: 3, anchor: at('2026-08-31T00:00:00Z') },
      2,
      '2027-02-28T00:00:00.000Z',
    ],
    [
      'quarterly from 31 August, three times',
      { interval: 'month', count: 3, anchor: at('2026-08-31T00:00:00Z') },
      3,
      '2027-05-31T00:00:00.000Z',
    ],
    [
      'yearly from 29 February, a common year',
      { interval: 'year', count: 1, anchor: at('2028-02-29T10:00:00Z') },
      1,
      '2029-02-28T10:00:00.000Z',
    ],
    [
      'yearly from 29 February, the next leap year',
      { interval: 'year', count: 1, anchor: at('2028-02-29T10:00:00Z') },
      4,
      '2032-02-29T10:00:00.000Z',
    ],
    [
      'every 2 years',
      { interval: 'year', count: 2, anchor: at('2026-06-15T00:00:00Z') },
      1,
      '2028-06-15T00:00:00.000Z',
    ],
    [
      'the anchor itself',
      { interval: 'month', count: 1, anchor: at('2026-01-31T00:00:00Z') },
      0,
      '2026-01-31T00:00:00.000Z',
    ],
  ])('%s', (_name, cadence, n, expected) => {
    expect(iso(nthPeriodEnd(cadence, n))).toBe(expected);
  });

  it('refuses a count below 1', () => {
    expect(() => nthPeriodEnd({ interval: 'month', count: 0, anchor: at('2026-01-01T00:00:00Z') }, 1)).toThrow(
      RangeError,
    );
  });
});

describe('periods around an instant', () => {
  const monthly: BillingCadence = { interval: 'month', count: 1, anchor: at('2026-01-31T00:00:00Z') };

  it.each([
    ['inside the first period', '2026-02-10T00:00:00Z', 0, '2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
    [
      'exactly on a boundary: the period that starts there',
      '2026-02-28T00:00:00Z',
      1,
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ],
    [
      'one millisecond before a boundary',
      '2026-03-30T23:59:59.999Z',
      1,
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ],
    ['years later', '2030-05-31T00:00:01Z', 52, '2030-05-31T00:00:00.000Z', '2030-06-30T00:00:00.000Z'],
  ])('%s', (_name, instant, index, start, end) => {
    const period = periodContaining(monthly, at(instant));
    expect({ index: period.index, start: iso(period.start), end: iso(period.end) }).toEqual({ index, start, end });
  });

  it('the next period after an instant starts at the first boundary strictly after it', () => {
    expect(iso(nextPeriodEndAfter(monthly, at('2026-02-28T00:00:00Z')))).toBe('2026-03-31T00:00:00.000Z');
    const next = nextPeriodAfter(monthly, at('2026-02-27T00:00:00Z'));
    expect([next.index, iso(next.start), iso(next.end)]).toEqual([
      1,
      '2026-02-28T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ]);
  });
});

describe('boundariesCrossed', () => {
  const weekly: BillingCadence = { interval: 'week', count: 1, anchor: at('2026-01-01T00:00:00Z') };

  it.each([
    ['nothing when the clock does not move', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', []],
    ['nothing when the clock moves backwards', '2026-01-20T00:00:00Z', '2026-01-01T00:00:00Z', []],
    [
      'a boundary landed on exactly is crossed',
      '2026-01-01T00:00:00Z',
      '2026-01-08T00:00:00Z',
      ['2026-01-08T00:00:00.000Z'],
    ],
    [
      'one starting exactly on a boundary is not',
      '2026-01-08T00:00:00Z',
      '2026-01-20T00:00:00Z',
      ['2026-01-15T00:00:00.000Z'],
    ],
    [
      'several, in order',
      '2026-01-02T00:00:00Z',
      '2026-01-29T00:00:00Z',
      ['2026-01-08T00:00:00.000Z', '2026-01-15T00:00:00.000Z', '2026-01-22T00:00:00.000Z', '2026-01-29T00:00:00.000Z'],
    ],
  ])('%s', (_name, from, to, expected) => {
    expect(boundariesCrossed(weekly, at(from), at(to)).map(iso)).toEqual(expected);
  });

  it('refuses more boundaries than its limit', () => {
    const daily: BillingCadence = { interval: 'day', count: 1, anchor: at('2026-01-01T00:00:00Z') };
    expect(() => boundariesCrossed(daily, at('2026-01-01T00:00:00Z'), at('2026-02-01T00:00:00Z'), 10)).toThrow(
      RangeError,
    );
  });
});

describe('addMonthsClamped', () => {
  it.each([
    ['2026-01-31T00:00:00Z', 1, '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T00:00:00Z', 1, '2028-02-29T00:00:00.000Z'],
    ['2026-03-31T00:00:00Z', -1, '2026-02-28T00:00:00.000Z'],
    ['2026-12-15T00:00:00Z', 1, '2027-01-15T00:00:00.000Z'],
    ['2026-01-15T00:00:00Z', -13, '2024-12-15T00:00:00.000Z'],
  ])('%s + %d months', (from, months, expected) => {
    expect(iso(addMonthsClamped(at(from), months))).toBe(expected);
  });
});
