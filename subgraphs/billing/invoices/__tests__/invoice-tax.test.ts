import { isReverseCharged, taxLineLabel, taxLinesOf } from '../invoice-tax.js';

/** A breakdown item as an order stores it (Polar's TaxBreakdownItem). */
const item = (display_name: string, rate: number | null, amount: number, taxability_reason = 'standard_rated') => ({
  display_name,
  rate_type: 'percentage',
  rate,
  amount,
  taxability_reason,
});

describe('the tax lines an invoice prints (docs/tax.md#invoices)', () => {
  it('prints one line per rate, in the order of the breakdown, adding up to the tax', () => {
    const breakdown = [item('California sales tax', 0.0725, 725), item('County tax', 0.0025, 25)];
    expect(taxLinesOf(breakdown, 750n)).toEqual([
      { label: 'California sales tax 7.25 %', amount: 725n },
      { label: 'County tax 0.25 %', amount: 25n },
    ]);
  });

  it('adds the items of one rate together, a credit line’s negative tax included', () => {
    const breakdown = [item('VAT 19 %', 0.19, 1267), item('VAT 19 %', 0.19, -633)];
    expect(taxLinesOf(breakdown, 634n)).toEqual([{ label: 'VAT 19 %', amount: 634n }]);
  });

  it('prints no line for what was not charged: reverse charge, not collecting, not subject to tax', () => {
    const breakdown = [
      item('VAT reverse charge', 0, 0, 'reverse_charge'),
      item('Tax', null, 0, 'not_collecting'),
      item('VAT', null, 0, 'not_subject_to_tax'),
    ];
    expect(taxLinesOf(breakdown, 0n)).toEqual([]);
    expect(isReverseCharged(breakdown)).toBe(true);
    expect(isReverseCharged([item('VAT 20 %', 0.2, 200)])).toBe(false);
  });

  it('answers null when the lines do not add up to the tax, so the invoice prints one "Tax" line', () => {
    expect(taxLinesOf([item('VAT 19 %', 0.19, 1900)], 1901n)).toBeNull();
  });

  it('names a rate once: the display name when it says the rate, else the rate after it', () => {
    expect(taxLineLabel(item('VAT 25.5 %', 0.255, 0))).toBe('VAT 25.5 %');
    expect(taxLineLabel(item('GST', 0.1, 0))).toBe('GST 10 %');
    expect(taxLineLabel(item('Tax', null, 0))).toBe('Tax');
  });
});
