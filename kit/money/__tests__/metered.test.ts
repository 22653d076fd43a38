import { formatUnitAmount, meteredAmount, meteredLabel, subtractDecimal } from '../metered.js';

describe('meteredAmount: exact decimals, the one rounding rule, the cap', () => {
  it.each([
    ['0.5', '901', null, 451n], // 450.5 rounds away from zero
    ['0.5', '901', 300n, 300n],
    ['0.5', '-3', null, 0n],
    ['0.000000000001', '1000000000000', null, 1n],
    ['0.1', '0.1', null, 0n],
    ['2.5', '1', null, 3n],
    ['1', '1e3', null, 1000n],
    ['0.333333333333', '3', null, 1n],
  ])('%s × %s (cap %s) = %s', (unit, units, cap, expected) => {
    expect(meteredAmount(unit, units, cap)).toBe(expected);
  });
});

describe('subtractDecimal', () => {
  it.each([
    ['1001', '100', '901'],
    ['0.5', '1.25', '-0.75'],
    ['10', '10', '0'],
  ])('%s − %s = %s', (a, b, expected) => {
    expect(subtractDecimal(a, b)).toBe(expected);
  });
});

describe("meteredLabel: Polar's label", () => {
  it('shows grouped units and the unit price in major units with all its decimals', () => {
    expect(meteredLabel('0.5', '1001', null, 'usd', false)).toBe('(1,001 consumed units) × $0.005');
    expect(meteredLabel('0.5', '901', 300n, 'usd', true)).toBe('(901 consumed units) × $0.005 — Capped at $3.00');
    expect(meteredLabel('250', '-2', null, 'usd', false)).toBe('(0 consumed units) × $2.50');
  });
});

describe('formatUnitAmount: a unit price in major units', () => {
  it("keeps every decimal of the price, at least the currency's", () => {
    expect(formatUnitAmount('0.5', 'usd')).toBe('$0.005');
    expect(formatUnitAmount('100', 'usd')).toBe('$1.00');
    expect(formatUnitAmount('0.25', 'jpy')).toBe('¥0.25');
  });
});
