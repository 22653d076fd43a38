import { createTenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { DE, email, exclusiveTax, FR, GB, inclusiveTax, NY, TaxMerchant, US } from '../support/tax-sales.js';

/**
 * Tax that follows the checkout and the seller's settings (docs/tax.md#checkouts, docs/tax-settings.md),
 * through the public REST API in the sandbox: a checkout's net, tax and total after every PATCH that
 * changes them; an organization without a country, which collects nothing; and a seller outside the EU
 * that charges only where it declared a registration. Expected amounts come from the rates, never from
 * the service's code.
 */
let stack: TestStack;
const PRICE = 10000;

beforeAll(async () => {
  stack = await sharedTestStack();
}, 120_000);

const merchant = async (settings: Record<string, unknown> | null) => {
  const m = new TaxMerchant(stack.sandbox.baseUrl, await createTenant(stack.sandbox));
  if (settings) await m.settings(settings);
  return m;
};

describe("a checkout's amounts follow every PATCH (a DE seller, 100.00 EUR, location)", () => {
  it('computes net, tax and total from the address, the VAT id, the business switch and the discount', async () => {
    const seller = await merchant({ country: 'DE' });
    const k = await seller.open(await seller.price(PRICE), { customer_email: email() });
    expect(k).toMatchObject({ net_amount: PRICE, tax_amount: null, total_amount: PRICE, tax_behavior: null });
    const patch = async (body: Record<string, unknown>, by: 'client' | 'merchant' = 'client') => {
      const res =
        by === 'client'
          ? await seller.client('PATCH', k.client_secret, '', body)
          : await seller.api('PATCH', `/v1/checkouts/${k.id}`, body);
      expect(res.status).toBe(200);
      const read = await seller.api('GET', `/v1/checkouts/${k.id}`);
      expect(read.body).toMatchObject({
        net_amount: res.body.net_amount,
        tax_amount: res.body.tax_amount,
        total_amount: res.body.total_amount,
      });
      return res.body;
    };
    const deTax = inclusiveTax(PRICE, 1900);
    expect(await patch({ customer_billing_address: DE })).toMatchObject({
      net_amount: PRICE - deTax,
      tax_amount: deTax,
      total_amount: PRICE,
      tax_behavior: 'inclusive',
      tax_breakdown: [expect.objectContaining({ country: 'DE', rate: 0.19, amount: deTax })],
    });
    const frTax = inclusiveTax(PRICE, 2000);
    expect(await patch({ customer_billing_address: FR })).toMatchObject({
      net_amount: PRICE - frTax,
      tax_amount: frTax,
      total_amount: PRICE,
      tax_breakdown: [expect.objectContaining({ country: 'FR', rate: 0.2, taxability_reason: 'standard_rated' })],
    });
    expect(await patch({ is_business_customer: true, customer_tax_id: 'FR11123456782' })).toMatchObject({
      customer_tax_id: 'FR11123456782',
      net_amount: PRICE,
      tax_amount: 0,
      total_amount: PRICE,
      tax_breakdown: [expect.objectContaining({ taxability_reason: 'reverse_charge', rate: 0 })],
    });
    // Polar's: a consumer has no tax id, so the id is cleared and French VAT is back.
    expect(await patch({ is_business_customer: false })).toMatchObject({
      customer_tax_id: null,
      tax_amount: frTax,
      net_amount: PRICE - frTax,
    });
    const off = await seller.api('POST', '/v1/discounts/', {
      name: 'Twenty off',
      type: 'fixed',
      duration: 'once',
      amount: 2000,
      currency: 'eur',
    });
    expect(off.status).toBe(201);
    const paid = PRICE - 2000;
    expect(await patch({ discount_id: off.body.id }, 'merchant')).toMatchObject({
      discount_amount: 2000,
      net_amount: paid - inclusiveTax(paid, 2000),
      tax_amount: inclusiveTax(paid, 2000),
      total_amount: paid,
    });
    // A US address: outside EU VAT, and `location` now means prices before tax.
    expect(await patch({ customer_billing_address: US })).toMatchObject({
      net_amount: paid,
      tax_amount: 0,
      total_amount: paid,
      tax_behavior: 'exclusive',
      tax_breakdown: [expect.objectContaining({ country: 'US', taxability_reason: 'not_subject_to_tax' })],
    });
    const confirmed = await seller.client('POST', k.client_secret, '/confirm', {
      confirmation_token_id: 'pm_card_visa',
    });
    expect(confirmed.status).toBe(200);
    const order = (await seller.api('GET', `/v1/orders/?checkout_id=${k.id}`)).body.items[0];
    expect(order).toMatchObject({ net_amount: paid, tax_amount: 0, total_amount: paid, tax_behavior: 'exclusive' });
  });
});

describe("the price's tax_behavior, else the organization's default_tax_behavior", () => {
  it('applies the default to prices without one, and a price of its own overrides it', async () => {
    const seller = await merchant({ country: 'DE', default_tax_behavior: 'exclusive' });
    const onTop = exclusiveTax(PRICE, 1900);
    const byDefault = await seller.buy(await seller.price(PRICE), { customer_billing_address: DE });
    expect(byDefault.order).toMatchObject({
      tax_behavior: 'exclusive',
      tax_amount: onTop,
      total_amount: PRICE + onTop,
    });
    const inside = inclusiveTax(PRICE, 1900);
    const own = await seller.buy(await seller.price(PRICE, 'inclusive'), { customer_billing_address: DE });
    expect(own.order).toMatchObject({ tax_behavior: 'inclusive', tax_amount: inside, total_amount: PRICE });
    await seller.settings({ default_tax_behavior: 'location' });
    const located = await seller.buy(await seller.price(PRICE), { customer_billing_address: DE });
    expect(located.order).toMatchObject({ tax_behavior: 'inclusive', tax_amount: inside, total_amount: PRICE });
  });
});

describe('an organization without a country collects nothing', () => {
  it('answers tax 0, not_collecting, with or without an address, as before tax existed', async () => {
    const seller = await merchant(null);
    const id = await seller.price(PRICE);
    const anonymous = await seller.open(id, { customer_email: email() });
    expect(anonymous).toMatchObject({ net_amount: PRICE, tax_amount: 0, total_amount: PRICE });
    for (const address of [undefined, FR]) {
      const { order, charged } = await seller.buy(id, address ? { customer_billing_address: address } : {});
      expect(order).toMatchObject({ net_amount: PRICE, tax_amount: 0, total_amount: PRICE });
      expect(order.tax_breakdown).toEqual([
        expect.objectContaining({ amount: 0, taxability_reason: 'not_collecting' }),
      ]);
      expect(charged).toBe(PRICE);
    }
  });
});

describe('a US seller charges only where it declared a registration', () => {
  let seller: TaxMerchant;
  let id: string;
  beforeAll(async () => {
    seller = await merchant({
      country: 'US',
      tax_settings: {
        registrations: [
          { country: 'US', state: 'US-CA', rate_basis_points: 725, display_name: 'California sales tax' },
          { country: 'GB', state: null, rate_basis_points: 2000, display_name: 'UK VAT' },
        ],
      },
    });
    id = await seller.price(PRICE, null, 'usd');
  });

  it.each([
    ['a California buyer pays the state rate on top (location → exclusive)', US, 'exclusive', 'CA', 725],
    ['a UK buyer pays the registered UK VAT inside the price (location → inclusive)', GB, 'inclusive', null, 2000],
  ])('%s', async (_name, address, behavior, state, bp) => {
    const tax = behavior === 'exclusive' ? exclusiveTax(PRICE, bp) : inclusiveTax(PRICE, bp);
    const total = behavior === 'exclusive' ? PRICE + tax : PRICE;
    const { order, charged } = await seller.buy(id, { customer_billing_address: address });
    expect(order).toMatchObject({
      tax_amount: tax,
      net_amount: total - tax,
      total_amount: total,
      tax_behavior: behavior,
    });
    expect(order.tax_breakdown).toEqual([
      {
        rate_type: 'percentage',
        rate: bp / 10000,
        display_name: bp === 725 ? 'California sales tax' : 'UK VAT',
        country: address.country,
        state,
        subdivision: null,
        amount: tax,
        taxability_reason: 'standard_rated',
      },
    ]);
    expect(charged).toBe(total);
  });

  it('collects nothing in another state or country, and invents no rate', async () => {
    for (const address of [NY, DE]) {
      const { order } = await seller.buy(id, { customer_billing_address: address });
      expect(order).toMatchObject({ tax_amount: 0, total_amount: PRICE });
      expect(order.tax_breakdown).toEqual([
        expect.objectContaining({
          amount: 0,
          rate: null,
          country: address.country,
          taxability_reason: 'not_collecting',
        }),
      ]);
    }
  });

  it("needs the buyer's state in a country where it is registered in some states only: 422, nothing charged", async () => {
    const k = await seller.open(id, {
      customer_email: email(),
      customer_billing_address: { line1: '1 Main Street', postal_code: '94105', city: 'Somewhere', country: 'US' },
    });
    expect(k.tax_amount).toBeNull();
    const confirm = await seller.client('POST', k.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    expect(confirm.status).toBe(422);
    expect(confirm.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'customer_billing_address', 'state'] }),
    ]);
    expect((await seller.api('GET', `/v1/orders/?checkout_id=${k.id}`)).body.items).toEqual([]);
    expect((await seller.api('GET', `/v1/checkouts/${k.id}`)).body.status).toBe('open');
  });
});
