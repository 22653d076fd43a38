import { ManualClock } from '../../kit/clock.js';
import { FakeStripeTax } from '../support/fake-stripe-tax.js';
import { FakeVies } from '../support/fake-vies.js';
import { createTenant } from '../support/stack.js';
import { StripeStack } from '../support/stripe-stack.js';
import { email, FR, inclusiveTax, TaxMerchant } from '../support/tax-sales.js';

/**
 * Tax in production, through the public REST API, where the service talks to the outside world
 * (docs/tax.md#vies, docs/tax.md#stripe-tax): EU VAT ids checked with VIES at the configured `VIES_URL`
 * within `VIES_TIMEOUT_MS`, its answer kept on the order; and, with Stripe as the processor, a seller
 * who turned Stripe Tax on taxed by its calculations API, the built-in rules answering when Stripe
 * cannot. VIES and Stripe are loopback fakes (test/support/fake-vies.ts, fake-stripe.ts handing
 * `/v1/tax/calculations` to fake-stripe-tax.ts).
 */
jest.setTimeout(120_000);
const wall = new ManualClock(new Date('2027-03-01T10:00:00.000Z'));
const world = new StripeStack('whsec_tax_production', wall);
const stripeTax = new FakeStripeTax(world.stripe.secretKey);
const vies = new FakeVies();
const PRICE = 10000;
const NL = { line1: 'Damrak 1', postal_code: '1012 LG', city: 'Amsterdam', country: 'NL' };

let seller: TaxMerchant;
let productId: string;

beforeAll(async () => {
  world.stripe.tax = stripeTax;
  const viesUrl = await vies.start();
  await world.start('tax_production', { VIES_URL: viesUrl, VIES_TIMEOUT_MS: '300' });
  seller = new TaxMerchant(world.base, world.owner);
  await seller.settings({ country: 'DE' });
  productId = await seller.price(PRICE);
}, 120_000);
afterAll(async () => {
  await world.close();
  await vies.stop();
});

/** What the order keeps as evidence of its tax (not served by the API: docs/tax.md#what-an-order-keeps). */
async function evidenceOf(orderId: string): Promise<Record<string, any>> {
  const [row] = await world.stack.production.environment.billing.orm.em
    .fork()
    .getConnection()
    .execute('select tax_evidence from billing.orders where id = ?', [orderId]);
  return row.tax_evidence;
}

describe('EU VAT ids checked with VIES', () => {
  it('reverse-charges an id VIES finds valid, keeping its request identifier and the trader on the order', async () => {
    const { order, charged } = await seller.buy(productId, {
      customer_billing_address: FR,
      customer_tax_id: 'FR61954506077',
    });
    expect(vies.requests.at(-1)).toEqual({ countryCode: 'FR', vatNumber: '61954506077' });
    expect(order).toMatchObject({ tax_amount: 0, total_amount: PRICE });
    expect(order.tax_breakdown[0].taxability_reason).toBe('reverse_charge');
    expect(charged).toBe(PRICE);
    expect((await evidenceOf(order.id)).vat_id_check).toMatchObject({
      result: 'valid',
      source: 'vies',
      reference: expect.stringMatching(/^WAPI/),
      name: 'ACME SAS',
    });
  });

  it.each([
    ['a member state VIES cannot reach', { error: 'MS_UNAVAILABLE' }, 0, 'MS_UNAVAILABLE'],
    ['VIES down (a 503)', { status: 503 }, 0, expect.any(String)],
    ['VIES answering after the configured timeout', 'valid', 1500, expect.any(String)],
  ] as const)(
    'takes an id it could not check because of %s as inconclusive, not invalid',
    async (_n, answer, delayMs, reference) => {
      vies.answers.set('FR44732829320', answer);
      vies.delayMs = delayMs;
      try {
        const { order } = await seller.buy(productId, {
          customer_billing_address: FR,
          customer_tax_id: 'FR44732829320',
        });
        expect(order).toMatchObject({ tax_amount: 0, total_amount: PRICE });
        expect(order.tax_breakdown[0].taxability_reason).toBe('reverse_charge');
        expect((await evidenceOf(order.id)).vat_id_check).toMatchObject({
          result: 'inconclusive',
          source: 'vies',
          reference,
        });
      } finally {
        vies.delayMs = 0;
      }
    },
  );

  it('refuses an id VIES says is not registered: 422 at customer_tax_id, the checkout unchanged', async () => {
    vies.answers.set('NL004495445B01', 'invalid');
    const k = await seller.open(productId, { customer_email: email(), customer_billing_address: NL });
    const res = await seller.client('PATCH', k.client_secret, '', { customer_tax_id: 'NL004495445B01' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'customer_tax_id'], msg: 'This VAT number is not registered (VIES)' }),
    ]);
    const read = await seller.api('GET', `/v1/checkouts/${k.id}`);
    expect(read.body).toMatchObject({ customer_tax_id: null, tax_amount: inclusiveTax(PRICE, 2100) });
  });
});

describe('Stripe Tax, for a seller who turned it on', () => {
  let stripeSeller: TaxMerchant;
  let stripeProduct: string;
  beforeAll(async () => {
    stripeSeller = new TaxMerchant(world.base, await createTenant(world.stack.production));
    await stripeSeller.settings({ country: 'DE', tax_settings: { stripe_tax_enabled: true } });
    stripeProduct = await stripeSeller.price(PRICE);
    // Stripe's French rate differs from the built-in one here, so each answer shows who computed it.
    stripeTax.rates.set('FR', { percentage: 21, taxType: 'vat' });
  });

  it("charges Stripe Tax's answer and keeps its calculation id", async () => {
    const asked = stripeTax.requests.length;
    const { order, charged } = await stripeSeller.buy(stripeProduct, { customer_billing_address: FR });
    expect(stripeTax.requests.length).toBeGreaterThan(asked);
    expect(stripeTax.requests.at(-1)).toMatchObject({
      currency: 'eur',
      customer_details: { address: { country: 'FR', postal_code: '75001' }, address_source: 'billing' },
      line_items: { 0: { amount: String(PRICE), tax_behavior: 'inclusive', tax_code: 'txcd_10000000' } },
    });
    const tax = inclusiveTax(PRICE, 2100);
    expect(order).toMatchObject({ tax_amount: tax, net_amount: PRICE - tax, total_amount: PRICE });
    expect(order.tax_breakdown).toEqual([
      expect.objectContaining({ rate: 0.21, country: 'FR', amount: tax, taxability_reason: 'standard_rated' }),
    ]);
    expect(charged).toBe(PRICE);
    expect(await evidenceOf(order.id)).toMatchObject({
      provider: 'stripe_tax',
      processor_id: expect.stringMatching(/^taxcalc_/),
    });
  });

  it('falls back to the built-in rules when Stripe Tax is down, and the sale goes through', async () => {
    stripeTax.outage = 503;
    try {
      const { order, charged } = await stripeSeller.buy(stripeProduct, { customer_billing_address: FR });
      const tax = inclusiveTax(PRICE, 2000);
      expect(order).toMatchObject({ tax_amount: tax, net_amount: PRICE - tax, total_amount: PRICE });
      expect(charged).toBe(PRICE);
      expect(await evidenceOf(order.id)).toMatchObject({ provider: 'built_in' });
    } finally {
      stripeTax.outage = null;
    }
  });

  it('leaves the sellers who did not turn it on to the built-in rules', async () => {
    const asked = stripeTax.requests.length;
    const { order } = await seller.buy(productId, { customer_billing_address: FR });
    expect(order.tax_amount).toBe(inclusiveTax(PRICE, 2000));
    expect(stripeTax.requests.length).toBe(asked);
  });
});
