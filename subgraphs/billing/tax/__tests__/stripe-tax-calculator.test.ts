import { FakeStripeTax } from '../../../../test/support/fake-stripe-tax.js';
import { BuiltInTaxCalculator } from '../built-in-calculator.js';
import { StripeTaxCalculator } from '../stripe-tax-calculator.js';
import { TaxAddressRequired, TaxIdRefused, TaxLocationInvalid } from '../tax.errors.js';
import { address, buyer, check, FR_VAT, PARIS, request, seller } from './tax-fixtures.js';

const DE = { ...seller('DE'), stripeTaxEnabled: true };

describe('StripeTaxCalculator against a fake Stripe Tax', () => {
  const stripe = new FakeStripeTax();
  let apiUrl: string;
  const warnings: unknown[] = [];
  const calculator = () =>
    new StripeTaxCalculator({
      secretKey: stripe.secretKey,
      apiUrl,
      fallback: new BuiltInTaxCalculator(),
      timeoutMs: 300,
      logger: { warn: (o: unknown) => warnings.push(o) } as never,
    });

  beforeAll(async () => {
    apiUrl = await stripe.start();
  });
  afterAll(() => stripe.stop());
  beforeEach(() => {
    stripe.requests.length = 0;
    stripe.outage = null;
    stripe.delayMs = 0;
    warnings.length = 0;
  });

  it('sends the buyer, the lines and the digital-services tax code, and maps the answer', async () => {
    const result = await calculator().calculate(
      request(DE, buyer(address('FR', '75001')), [12_000n, 999n], { behavior: 'inclusive' }),
    );
    expect(stripe.requests[0]).toMatchObject({
      currency: 'eur',
      customer_details: { address: { country: 'FR', postal_code: '75001' }, address_source: 'billing' },
      line_items: {
        '0': { amount: '12000', reference: 'line-0', tax_behavior: 'inclusive', tax_code: 'txcd_10000000' },
        '1': { amount: '999', reference: 'line-1', tax_behavior: 'inclusive', tax_code: 'txcd_10000000' },
      },
      expand: { '0': 'line_items' },
    });
    expect(result).toMatchObject({
      provider: 'stripe_tax',
      processorId: expect.stringMatching(/^taxcalc_/),
      taxBehavior: 'inclusive',
      netAmount: 10_833n,
      taxAmount: 2166n,
      totalAmount: 12_999n,
    });
    expect(result.lines).toEqual([
      { key: 'line-0', net: 10_000n, tax: 2000n, total: 12_000n },
      { key: 'line-1', net: 833n, tax: 166n, total: 999n },
    ]);
    expect(result.breakdown).toEqual([
      {
        rate_type: 'percentage',
        rate: 0.2,
        display_name: 'VAT',
        country: 'FR',
        state: null,
        subdivision: null,
        amount: 2166,
        taxability_reason: 'standard_rated',
      },
    ]);
  });

  it('sends the tax id, and reads reverse charge', async () => {
    const result = await calculator().calculate(request(DE, buyer(PARIS, FR_VAT, check('valid')), [10_000n]));
    expect(stripe.requests[0]!.customer_details.tax_ids).toEqual({ '0': { type: 'eu_vat', value: FR_VAT } });
    expect(result.taxAmount).toBe(0n);
    expect(result.breakdown[0]).toMatchObject({ rate: 0, taxability_reason: 'reverse_charge', country: 'FR' });
  });

  it('reads a US state rate, exclusive by location', async () => {
    const result = await calculator().calculate(request(DE, buyer(address('US', '94103', 'US-CA')), [10_000n]));
    expect(stripe.requests[0]!.customer_details.address.state).toBe('CA');
    expect(result).toMatchObject({ taxBehavior: 'exclusive', taxAmount: 725n, totalAmount: 10_725n });
    expect(result.breakdown[0]).toMatchObject({ rate: 0.0725, display_name: 'Sales Tax', state: 'CA' });
  });

  it('asks for a credit on its magnitude and negates it', async () => {
    const result = await calculator().calculate(
      request(DE, buyer(address('DE', '10115')), [2999n, -1999n], { behavior: 'exclusive' }),
    );
    expect(stripe.requests).toHaveLength(2);
    expect(stripe.requests[1]!.line_items['0'].amount).toBe('1999');
    expect(result.lines).toEqual([
      { key: 'line-0', net: 2999n, tax: 570n, total: 3569n },
      { key: 'line-1', net: -1999n, tax: -380n, total: -2379n },
    ]);
    expect(result.breakdown).toHaveLength(1);
    expect(result.breakdown[0]!.amount).toBe(190);
    expect(result.processorId!.split(',')).toHaveLength(2);
  });

  it.each([
    ['a 5xx', () => (stripe.outage = 503)],
    ['a 429', () => (stripe.outage = 429)],
    ['a timeout', () => (stripe.delayMs = 1000)],
  ])('falls back to the built-in rules on %s, with a warning', async (_name, breakIt) => {
    breakIt();
    const result = await calculator().calculate(request(DE, buyer(PARIS), [12_000n]));
    expect(result).toMatchObject({ provider: 'built_in', processorId: null, taxAmount: 2000n });
    expect(warnings).toEqual([expect.objectContaining({ organizationId: 'org' })]);
  });

  it('falls back when nothing answers, and when Stripe refuses the key', async () => {
    const closed = new FakeStripeTax();
    const closedUrl = await closed.start();
    await closed.stop();
    const offline = new StripeTaxCalculator({
      secretKey: 'sk_test_x',
      apiUrl: closedUrl,
      fallback: new BuiltInTaxCalculator(),
    });
    expect((await offline.calculate(request(DE, buyer(PARIS), [100n]))).provider).toBe('built_in');
    const wrongKey = new StripeTaxCalculator({
      secretKey: 'sk_test_wrong',
      apiUrl,
      fallback: new BuiltInTaxCalculator(),
    });
    expect((await wrongKey.calculate(request(DE, buyer(PARIS), [100n]))).provider).toBe('built_in');
  });

  it('refuses, without falling back, an address Stripe cannot place or a tax id it refuses', async () => {
    const noPostalCode = calculator().calculate(request(DE, buyer(address('US', null, 'CA')), [100n]));
    await expect(noPostalCode).rejects.toBeInstanceOf(TaxLocationInvalid);
    const badId = calculator().calculate(request(DE, buyer(PARIS, 'INVALID', check('valid')), [100n]));
    await expect(badId).rejects.toBeInstanceOf(TaxIdRefused);
    await expect(calculator().calculate(request(DE, buyer(null), [100n]))).rejects.toBeInstanceOf(TaxAddressRequired);
    expect(warnings).toEqual([]);
  });
});
