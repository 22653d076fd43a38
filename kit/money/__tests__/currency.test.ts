import { currencyExponent, minorUnitsPerMajor, normalizeCurrency } from '../currency.js';

describe("currency exponents (Stripe's tables)", () => {
  it.each([
    ['usd', 2],
    ['EUR', 2],
    ['gbp', 2],
    ['jpy', 0],
    ['KRW', 0],
    ['vnd', 0],
    ['clp', 0],
    ['xof', 0],
    ['ugx', 0],
    ['bhd', 3],
    ['KWD', 3],
    ['jod', 3],
    ['omr', 3],
    ['tnd', 3],
    ['chf', 2],
    ['zzz', 2],
  ])('%s has %i decimals', (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent);
  });

  it.each([
    ['jpy', 1n],
    ['usd', 100n],
    ['kwd', 1000n],
  ])('one %s is %s minor units', (code, per) => {
    expect(minorUnitsPerMajor(code)).toBe(per);
  });

  it("normalizes to Polar's lower-case codes and refuses anything else", () => {
    expect(normalizeCurrency(' USD ')).toBe('usd');
    for (const bad of ['', 'us', 'usdd', 'u$d', '123']) expect(() => normalizeCurrency(bad)).toThrow(RangeError);
  });
});
