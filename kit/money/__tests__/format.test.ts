import { formatInterval, formatMoney, formatRecurringPrice, parseMajorUnits, toDecimalString } from '../format.js';
import { money, sumMoney } from '../money.js';

describe('toDecimalString', () => {
  it.each([
    [1234n, 'usd', '12.34'],
    [5n, 'usd', '0.05'],
    [-5n, 'usd', '-0.05'],
    [0n, 'eur', '0.00'],
    [1234n, 'jpy', '1234'],
    [1234n, 'KWD', '1.234'],
    [7n, 'bhd', '0.007'],
    [9_007_199_254_740_993n, 'usd', '90071992547409.93'],
  ])('%s %s is %s', (amount, currency, expected) => {
    expect(toDecimalString(amount, currency)).toBe(expected);
  });
});

describe('formatMoney', () => {
  it.each([
    [1234n, 'usd', {}, '$12.34'],
    [-483n, 'usd', {}, '-$4.83'],
    [1000n, 'jpy', {}, '¥1,000'],
    [5000n, 'krw', {}, '₩5,000'],
    [1234n, 'kwd', {}, 'KWD 1.234'],
    [123456n, 'eur', {}, '€1,234.56'],
    [123450n, 'eur', { locale: 'de-DE' }, '1.234,50 €'],
    [1234n, 'usd', { currencyDisplay: 'code' as const }, 'USD 12.34'],
    [9_007_199_254_740_993n, 'usd', {}, '$90,071,992,547,409.93'],
  ])('%s %s %j → %s', (amount, currency, options, expected) => {
    // Intl separates a code from the number with a no-break space.
    expect(formatMoney(amount, currency, options).replace(/\u00a0/g, ' ')).toBe(expected);
  });
});

describe('parseMajorUnits', () => {
  it.each([
    ['12.34', 'usd', 1234n],
    ['12.3', 'usd', 1230n],
    ['12', 'usd', 1200n],
    ['1000', 'jpy', 1000n],
    ['1.234', 'kwd', 1234n],
    [' -0.05 ', 'usd', -5n],
    ['12.345', 'usd', null],
    ['10.5', 'jpy', null],
    ['1,000', 'usd', null],
    ['', 'usd', null],
    ['abc', 'usd', null],
    ['1e3', 'usd', null],
  ])('%j %s → %s', (text, currency, expected) => {
    expect(parseMajorUnits(text, currency)).toBe(expected);
  });

  it('is the inverse of toDecimalString', () => {
    for (const currency of ['usd', 'jpy', 'kwd'])
      for (const amount of [0n, 1n, 99n, 100n, 12345n, -987n])
        expect(parseMajorUnits(toDecimalString(amount, currency), currency)).toBe(amount);
  });
});

describe('sumMoney', () => {
  it('adds amounts of one currency', () => {
    expect(sumMoney('USD', [money(500n, 'usd'), money(-483n, 'USD')])).toEqual({ amount: 17n, currency: 'usd' });
  });
  it('refuses to add two currencies', () => {
    expect(() => sumMoney('usd', [money(1n, 'usd'), money(1n, 'eur')])).toThrow(
      expect.objectContaining({ code: 'CurrencyMismatch', status: 500 }),
    );
  });
});

describe('formatRecurringPrice and formatInterval', () => {
  it.each([
    [4900n, 'usd', 'month', 1, '$49.00 / month'],
    [4900n, 'usd', 'month', null, '$49.00 / month'],
    [49000n, 'usd', 'year', 1, '$490.00 / year'],
    [9000n, 'usd', 'month', 3, '$90.00 / 3 months'],
    [1000n, 'jpy', 'week', 2, '¥1,000 / 2 weeks'],
    [500n, 'eur', 'day', 1, '€5.00 / day'],
    [4900n, 'usd', null, 1, '$49.00'],
  ])('%s %s every %s ×%s → %s', (amount, currency, interval, count, expected) => {
    expect(formatRecurringPrice(amount, currency, interval, count)).toBe(expected);
  });

  it('names only the period, empty for a one-time price', () => {
    expect(formatInterval('year')).toBe('/ year');
    expect(formatInterval('month', 6)).toBe('/ 6 months');
    expect(formatInterval(undefined)).toBe('');
  });
});
