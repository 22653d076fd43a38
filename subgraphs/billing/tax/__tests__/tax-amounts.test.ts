import { taxLine, untaxedLine } from '../tax-amounts.js';

describe('taxLine (one line, one rounding)', () => {
  it.each([
    // amount, bp, behavior, net, tax, total
    [10_000n, 1900, 'exclusive', 10_000n, 1900n, 11_900n],
    [1999n, 2000, 'exclusive', 1999n, 400n, 2399n], // 399.8 → 400
    [1999n, 2550, 'exclusive', 1999n, 510n, 2509n], // 509.745 → 510
    [11_900n, 1900, 'inclusive', 10_000n, 1900n, 11_900n],
    [1000n, 1900, 'inclusive', 840n, 160n, 1000n], // 840.34 → 840
    [999n, 2000, 'inclusive', 833n, 166n, 999n], // 832.5 → 833 (half away from zero)
    [1000n, 2550, 'inclusive', 797n, 203n, 1000n], // 796.81 → 797
    [1n, 2000, 'exclusive', 1n, 0n, 1n],
    [0n, 2000, 'inclusive', 0n, 0n, 0n],
    [5000n, 0, 'exclusive', 5000n, 0n, 5000n],
    [5000n, 0, 'inclusive', 5000n, 0n, 5000n],
    // JPY has no minor unit: the amount is whole yen and so is the tax.
    [1000n, 1000, 'exclusive', 1000n, 100n, 1100n],
    [1080n, 800, 'inclusive', 1000n, 80n, 1080n],
  ] as const)('%s at %i bp %s → net %s, tax %s, total %s', (amount, bp, behavior, net, tax, total) => {
    expect(taxLine(amount, bp, behavior)).toEqual({ net, tax, total });
  });

  it('keeps net + tax = total exactly for every inclusive amount', () => {
    for (let amount = 0n; amount < 3000n; amount += 7n) {
      for (const bp of [1700, 1900, 2100, 2550, 2700]) {
        const line = taxLine(amount, bp, 'inclusive');
        expect(line.total).toBe(amount);
        expect(line.net + line.tax).toBe(amount);
      }
    }
  });

  it('negates the tax of a credit line (proration) computed on its magnitude', () => {
    expect(taxLine(-1999n, 2000, 'exclusive')).toEqual({ net: -1999n, tax: -400n, total: -2399n });
    expect(taxLine(-999n, 2000, 'inclusive')).toEqual({ net: -833n, tax: -166n, total: -999n });
  });

  it('refuses a rate that is not a non-negative integer of basis points', () => {
    expect(() => taxLine(100n, 19.5, 'exclusive')).toThrow(RangeError);
    expect(() => taxLine(100n, -1, 'exclusive')).toThrow(RangeError);
  });

  it('leaves an untaxed line as it is', () => {
    expect(untaxedLine(-50n)).toEqual({ net: -50n, tax: 0n, total: -50n });
  });
});
