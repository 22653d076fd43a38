import { PolarRequestValidationError } from '../../../../kit/errors.js';
import { PriceAmountType, RecurringInterval } from '../../shared/enums.js';
import { csvField } from '../../shared/csv.js';
import { normaliseFilters } from '../subscription.filters.js';
import { addInterval, isFreePrice } from '../subscription.service.js';
import { subscriptionOrder } from '../subscription.sorting.js';

describe('addInterval', () => {
  it.each([
    ['2026-01-31T10:00:00.000Z', RecurringInterval.MONTH, 1, '2026-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', RecurringInterval.MONTH, 1, '2028-02-29T10:00:00.000Z'],
    ['2026-03-15T00:00:00.000Z', RecurringInterval.MONTH, 3, '2026-06-15T00:00:00.000Z'],
    ['2026-11-30T00:00:00.000Z', RecurringInterval.MONTH, 3, '2027-02-28T00:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', RecurringInterval.YEAR, 1, '2029-02-28T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', RecurringInterval.WEEK, 2, '2026-01-15T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', RecurringInterval.DAY, 30, '2026-01-31T00:00:00.000Z'],
  ])('%s + %s × %i = %s', (start, interval, count, end) => {
    expect(addInterval(new Date(start), interval, count).toISOString()).toBe(end);
  });
});

describe('isFreePrice', () => {
  it.each([
    [PriceAmountType.FREE, null, true],
    [PriceAmountType.FIXED, 0n, true],
    [PriceAmountType.FIXED, 1n, false],
    [PriceAmountType.CUSTOM, null, false],
    [PriceAmountType.SEAT_BASED, null, false],
  ])('%s %p → %p', (amountType, priceAmount, free) => {
    expect(isFreePrice({ amountType, priceAmount })).toBe(free);
  });
});

describe('subscriptionOrder', () => {
  it('defaults to -started_at and keeps the first of duplicate keys', () => {
    expect(subscriptionOrder(null)).toEqual([{ key: 'started_at', direction: 'desc' }]);
    expect(subscriptionOrder(['amount', '-amount', '-customer'])).toEqual([
      { key: 'amount', direction: 'asc' },
      { key: 'customer', direction: 'desc' },
    ]);
  });
  it('refuses unknown keys with Polar’s 422 item', () => {
    expect(() => subscriptionOrder(['created_at'])).toThrow(PolarRequestValidationError);
  });
});

describe('normaliseFilters', () => {
  it('normalises lists and metadata values', () => {
    expect(normaliseFilters({ status: ['active', 'active'], metadata: { a: 'x', b: ['1', 2, true] } })).toEqual({
      status: ['active'],
      metadata: { a: ['x'], b: ['1', '2', 'true'] },
    });
  });
  it('refuses unknown statuses, reasons and malformed ids (GraphQL clients get REST’s answers)', () => {
    for (const bad of [
      { status: ['nope'] },
      { customerCancellationReason: ['meh'] },
      { productId: ['x'] },
      { metadata: { a: { nested: 1 } } },
    ]) {
      expect(() => normaliseFilters(bad as never)).toThrow(PolarRequestValidationError);
    }
  });
});

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [null, ''],
    [12n, '12'],
    [new Date('2026-01-01T00:00:00Z'), '2026-01-01T00:00:00.000Z'],
  ])('%p → %p', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});
