import { FakeStripeTax } from '../../../../test/support/fake-stripe-tax.js';
import { FakeVies } from '../../../../test/support/fake-vies.js';
import { resolveTaxBehavior, taxServices } from '../tax-setup.js';
import { AT, address, buyer, request, seller } from './tax-fixtures.js';

describe('taxServices: which calculator and which VAT-id check', () => {
  const stripe = new FakeStripeTax();
  const vies = new FakeVies();
  let stripeUrl: string;
  let viesUrl: string;
  beforeAll(async () => {
    [stripeUrl, viesUrl] = await Promise.all([stripe.start(), vies.start()]);
  });
  afterAll(() => Promise.all([stripe.stop(), vies.stop()]));
  beforeEach(() => {
    stripe.requests.length = 0;
    vies.requests.length = 0;
  });

  const production = () =>
    taxServices({
      sandbox: false,
      config: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_API_URL: stripeUrl,
        VIES_URL: viesUrl,
        VIES_TIMEOUT_MS: 500,
      },
    });
  const paris = buyer(address('FR', '75001'));

  it('asks Stripe Tax for a seller who turned it on, in production', async () => {
    const result = await production().calculator.calculate(
      request({ ...seller('DE'), stripeTaxEnabled: true }, paris, [1200n]),
    );
    expect(result.provider).toBe('stripe_tax');
    expect(stripe.requests).toHaveLength(1);
  });

  it('uses the built-in rules for a seller who did not, or has no country', async () => {
    const { calculator } = production();
    expect((await calculator.calculate(request(seller('DE'), paris, [1200n]))).provider).toBe('built_in');
    const noCountry = await calculator.calculate(request({ ...seller(null), stripeTaxEnabled: true }, paris, [1200n]));
    expect(noCountry.breakdown[0]!.taxability_reason).toBe('not_collecting');
    expect(stripe.requests).toHaveLength(0);
  });

  it('never asks Stripe in the sandbox, nor without a key, nor when production takes test payments', async () => {
    const enabled = request({ ...seller('DE'), stripeTaxEnabled: true }, paris, [1200n]);
    const settings = [
      { sandbox: true, config: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: stripeUrl } },
      { sandbox: false, config: { STRIPE_API_URL: stripeUrl } },
      {
        sandbox: false,
        config: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_URL: stripeUrl, PAYMENT_PROCESSOR: 'test' as const },
      },
    ];
    for (const options of settings)
      expect((await taxServices(options).calculator.calculate(enabled)).provider).toBe('built_in');
    expect(stripe.requests).toHaveLength(0);
  });

  it('checks VAT ids with VIES in production and with the test ids in the sandbox', async () => {
    expect(await production().vatIds.check(['DE136695976', 'eu_vat'], AT)).toMatchObject({
      result: 'valid',
      source: 'vies',
    });
    expect(vies.requests).toHaveLength(1);
    const sandbox = taxServices({ sandbox: true, config: { VIES_URL: viesUrl } });
    expect(await sandbox.vatIds.check(['DE123456788', 'eu_vat'], AT)).toMatchObject({
      result: 'valid',
      source: 'sandbox',
    });
    expect(vies.requests).toHaveLength(1);
  });

  it('exports resolveTaxBehavior', () => {
    expect(resolveTaxBehavior('location', 'US')).toBe('exclusive');
  });
});
