import { BuiltInTaxCalculator, resolveTaxBehavior } from '../built-in-calculator.js';
import type { BuyerTaxProfile, SellerTaxProfile } from '../tax.contract.js';
import { TaxAddressRequired } from '../tax.errors.js';
import { address, buyer, DE_SELLER as DE, PARIS, request, seller } from './tax-fixtures.js';

const calculator = new BuiltInTaxCalculator();

describe('BuiltInTaxCalculator: amounts', () => {
  it('resolves location: exclusive for US, CA and IN buyers, inclusive elsewhere', async () => {
    expect(resolveTaxBehavior('location', 'US')).toBe('exclusive');
    expect(resolveTaxBehavior('location', 'ca')).toBe('exclusive');
    expect(resolveTaxBehavior('location', 'IN')).toBe('exclusive');
    expect(resolveTaxBehavior('location', 'DE')).toBe('inclusive');
    expect(resolveTaxBehavior('location', null)).toBe('inclusive');
    expect(resolveTaxBehavior('exclusive', 'DE')).toBe('exclusive');
    expect(resolveTaxBehavior('inclusive', 'US')).toBe('inclusive');
    const us = await calculator.calculate(request(DE, buyer(address('US', '10001', 'NY')), [1000n]));
    expect(us.taxBehavior).toBe('exclusive');
  });

  it('takes the seller country for location when the buyer has no address and nothing is collected', async () => {
    const result = await calculator.calculate(request(seller('US'), buyer(null), [1000n]));
    expect(result.taxBehavior).toBe('exclusive');
  });

  it('rounds per line, and the breakdown sums the rounded lines', async () => {
    const result = await calculator.calculate(request(DE, buyer(PARIS), [999n, 999n], { behavior: 'inclusive' }));
    expect(result.lines.map(l => l.tax)).toEqual([166n, 166n]);
    expect(result.taxAmount).toBe(332n); // 1998 at once would round to 333
    expect(result.breakdown[0]!.amount).toBe(332);
    expect(result.netAmount + result.taxAmount).toBe(result.totalAmount);
  });

  it('gives a negative line (a proration credit) negative tax', async () => {
    const result = await calculator.calculate(request(DE, buyer(PARIS), [2999n, -1999n], { behavior: 'exclusive' }));
    expect(result.lines).toEqual([
      { key: 'line-0', net: 2999n, tax: 600n, total: 3599n },
      { key: 'line-1', net: -1999n, tax: -400n, total: -2399n },
    ]);
    expect(result.taxAmount).toBe(200n);
  });

  it('computes a zero-decimal currency (JPY) in whole yen', async () => {
    const result = await calculator.calculate(
      request(DE, buyer(address('DE', '10115')), [1190n], { currency: 'jpy', behavior: 'inclusive' }),
    );
    expect(result).toMatchObject({ currency: 'jpy', netAmount: 1000n, taxAmount: 190n, totalAmount: 1190n });
  });

  it('takes the rate in force on the day of the sale', async () => {
    const tallinn = buyer(address('EE', '10111'));
    const before = await calculator.calculate(
      request(DE, tallinn, [10_000n], { behavior: 'exclusive', at: new Date('2025-06-30T23:59:59Z') }),
    );
    const after = await calculator.calculate(
      request(DE, tallinn, [10_000n], { behavior: 'exclusive', at: new Date('2025-07-01T00:00:00Z') }),
    );
    expect([before.taxAmount, before.breakdown[0]!.rate]).toEqual([2200n, 0.22]);
    expect([after.taxAmount, after.breakdown[0]!.rate]).toEqual([2400n, 0.24]);
  });
});

describe('BuiltInTaxCalculator: sellers who do not collect, and registrations', () => {
  it('collects nothing for a seller without a country, and needs no address', async () => {
    const result = await calculator.calculate(request(seller(null), buyer(null), [1000n, 500n]));
    expect(result).toMatchObject({ netAmount: 1500n, taxAmount: 0n, totalAmount: 1500n });
    expect(result.breakdown).toEqual([
      {
        rate_type: 'percentage',
        rate: null,
        display_name: 'Tax',
        country: null,
        state: null,
        subdivision: null,
        amount: 0,
        taxability_reason: 'not_collecting',
      },
    ]);
  });

  const californiaAndUk = seller('US', [
    { country: 'US', state: 'CA', rate_basis_points: 725, display_name: 'Sales tax' },
    { country: 'GB', state: null, rate_basis_points: 2000, display_name: 'VAT' },
  ]);

  it('charges a registration where the buyer is: a US state', async () => {
    const result = await calculator.calculate(
      request(californiaAndUk, buyer(address('US', '94103', 'US-CA')), [10_000n]),
    );
    expect(result).toMatchObject({ taxBehavior: 'exclusive', taxAmount: 725n, totalAmount: 10_725n });
    expect(result.breakdown[0]).toMatchObject({
      rate: 0.0725,
      display_name: 'Sales tax',
      country: 'US',
      state: 'CA',
      taxability_reason: 'standard_rated',
    });
  });

  it('charges a country-wide registration (the UK), inclusive there', async () => {
    const result = await calculator.calculate(request(californiaAndUk, buyer(address('GB', 'SW1A 1AA')), [1200n]));
    expect(result).toMatchObject({ taxBehavior: 'inclusive', netAmount: 1000n, taxAmount: 200n });
  });

  it('collects nothing where the seller is not registered (another state, another country)', async () => {
    for (const where of [address('US', '10001', 'NY'), address('AU', '2000'), address('DE', '10115')]) {
      const result = await calculator.calculate(request(californiaAndUk, buyer(where), [10_000n]));
      expect([result.taxAmount, result.breakdown[0]!.taxability_reason, result.breakdown[0]!.rate]).toEqual([
        0n,
        'not_collecting',
        null,
      ]);
    }
  });

  it('collects nothing, and asks for no address, for a seller outside the EU with no registration', async () => {
    const result = await calculator.calculate(request(seller('US'), buyer(null), [10_000n]));
    expect(result.breakdown[0]!.taxability_reason).toBe('not_collecting');
  });

  it("charges an EU seller's registration outside the EU", async () => {
    const withUk = seller('DE', [{ country: 'GB', state: null, rate_basis_points: 2000, display_name: 'UK VAT' }]);
    const result = await calculator.calculate(request(withUk, buyer(address('GB', 'SW1A 1AA')), [1200n]));
    expect(result.breakdown[0]).toMatchObject({ display_name: 'UK VAT', rate: 0.2, amount: 200 });
  });
});

describe('BuiltInTaxCalculator: the address tax needs', () => {
  async function refusal(s: SellerTaxProfile, b: BuyerTaxProfile) {
    return calculator.calculate(request(s, b, [1000n])).then(
      () => null,
      (error: unknown) => error,
    );
  }

  it('needs an address when the seller collects', async () => {
    const error = await refusal(DE, buyer(null));
    expect(error).toBeInstanceOf(TaxAddressRequired);
    expect((error as TaxAddressRequired).part).toBe('address');
    expect((error as TaxAddressRequired).details).toEqual([
      {
        type: 'missing',
        loc: ['body', 'customer_billing_address'],
        msg: 'A billing address is required to compute tax.',
        input: null,
      },
    ]);
  });

  it('needs a postal code in a member state with territories outside EU VAT', async () => {
    const error = (await refusal(DE, buyer(address('ES')))) as TaxAddressRequired;
    expect(error.part).toBe('postal_code');
    expect(error.at(['body', 'billing_address']).details).toEqual([
      {
        type: 'missing',
        loc: ['body', 'billing_address', 'postal_code'],
        msg: 'A postal code is required to compute tax for this country.',
        input: null,
      },
    ]);
    expect(await refusal(DE, buyer(address('NL')))).toBeNull();
  });

  it('needs the state where the seller is registered in some states only', async () => {
    const california = seller('US', [
      { country: 'US', state: 'CA', rate_basis_points: 725, display_name: 'Sales tax' },
    ]);
    expect(((await refusal(california, buyer(address('US', '94103')))) as TaxAddressRequired).part).toBe('state');
  });
});
