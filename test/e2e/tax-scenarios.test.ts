import { call, createTenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { CANARY, DE, div, email, exclusiveTax, FR, inclusiveTax, TaxMerchant, US } from '../support/tax-sales.js';

/**
 * Issue 24's table of tax scenarios, to the cent, through the public REST API on the real stack in the
 * sandbox (test processor, the sandbox's test VAT ids: docs/tax.md#sandbox-test-ids): a seller in
 * Germany (`country: "DE"`) selling a 100.00 EUR product. Every expected amount is computed here from
 * the rates (DE 19 %, FR 20 %), never by the service's own code.
 */
let stack: TestStack;
let seller: TaxMerchant;
let api: TaxMerchant['api'];
let client: TaxMerchant['client'];

/** Sandbox test ids: valid without VIES; any other well-formed id is inconclusive (VIES not reached). */
const FR_VALID = 'FR11123456782';
const FR_UNCHECKED = 'FR44732829320';

const product = (body: Record<string, unknown>) => seller.product(body);
const eur = (price: number, taxBehavior: string | null = null) => seller.price(price, taxBehavior);
const buy = (productId: string, details: Record<string, unknown>) => seller.buy(productId, details);

beforeAll(async () => {
  stack = await sharedTestStack();
  seller = new TaxMerchant(stack.sandbox.baseUrl, await createTenant(stack.sandbox));
  ({ api, client } = seller);
  await seller.settings({ country: 'DE' });
}, 120_000);

interface Row {
  name: string;
  address: Record<string, unknown>;
  taxId?: string;
  behavior: string | null;
  expect: { tax: number; net: number; total: number; taxBehavior: string; reason: string; rate: number | null };
  /** The breakdown item's display name and country. */
  item: [string, string];
}

const PRICE = 10000;
const deTax = inclusiveTax(PRICE, 1900);
const frTax = inclusiveTax(PRICE, 2000);
/** German VAT inside the price: what every buyer the seller must charge its own country's rate sees. */
const GERMAN_VAT: Pick<Row, 'expect' | 'item'> = {
  expect: {
    tax: deTax,
    net: PRICE - deTax,
    total: PRICE,
    taxBehavior: 'inclusive',
    reason: 'standard_rated',
    rate: 0.19,
  },
  item: ['VAT 19 %', 'DE'],
};
const ROWS: Row[] = [
  {
    name: 'a DE consumer pays German VAT inside the price (location → inclusive)',
    address: DE,
    behavior: null,
    ...GERMAN_VAT,
  },
  {
    name: 'a DE business with a valid VAT id still pays German VAT (the seller’s own country)',
    address: DE,
    taxId: 'DE123456788',
    behavior: null,
    ...GERMAN_VAT,
  },
  {
    name: 'a FR consumer pays French VAT (the buyer’s country)',
    address: FR,
    behavior: null,
    expect: {
      tax: frTax,
      net: PRICE - frTax,
      total: PRICE,
      taxBehavior: 'inclusive',
      reason: 'standard_rated',
      rate: 0.2,
    },
    item: ['VAT 20 %', 'FR'],
  },
  {
    name: 'a FR business with a valid VAT id: reverse charge, 0',
    address: FR,
    taxId: FR_VALID,
    behavior: null,
    expect: { tax: 0, net: PRICE, total: PRICE, taxBehavior: 'inclusive', reason: 'reverse_charge', rate: 0 },
    item: ['VAT reverse charge', 'FR'],
  },
  {
    name: 'a FR business whose id VIES cannot check: reverse charge, the check recorded as inconclusive',
    address: FR,
    taxId: FR_UNCHECKED,
    behavior: null,
    expect: { tax: 0, net: PRICE, total: PRICE, taxBehavior: 'inclusive', reason: 'reverse_charge', rate: 0 },
    item: ['VAT reverse charge', 'FR'],
  },
  {
    name: 'a US buyer: outside EU VAT, prices before tax (location → exclusive)',
    address: US,
    behavior: null,
    expect: { tax: 0, net: PRICE, total: PRICE, taxBehavior: 'exclusive', reason: 'not_subject_to_tax', rate: null },
    item: ['VAT', 'US'],
  },
  {
    name: 'a Canary Islands address (ES 35001): outside EU VAT',
    address: CANARY,
    behavior: null,
    expect: { tax: 0, net: PRICE, total: PRICE, taxBehavior: 'inclusive', reason: 'not_subject_to_tax', rate: null },
    item: ['VAT', 'ES'],
  },
  {
    name: 'an exclusive price: German VAT on top',
    address: DE,
    behavior: 'exclusive',
    expect: {
      tax: exclusiveTax(PRICE, 1900),
      net: PRICE,
      total: PRICE + exclusiveTax(PRICE, 1900),
      taxBehavior: 'exclusive',
      reason: 'standard_rated',
      rate: 0.19,
    },
    item: ['VAT 19 %', 'DE'],
  },
];

describe('a DE seller sells a 100.00 EUR product', () => {
  it.each(ROWS)('$name', async row => {
    const id = await eur(PRICE, row.behavior);
    const { checkout, order, charged } = await buy(id, {
      customer_billing_address: row.address,
      ...(row.taxId ? { customer_tax_id: row.taxId, is_business_customer: true } : {}),
    });
    const e = row.expect;
    expect(checkout).toMatchObject({
      net_amount: e.net,
      tax_amount: e.tax,
      total_amount: e.total,
      tax_behavior: e.taxBehavior,
    });
    expect(order).toMatchObject({
      subtotal_amount: PRICE,
      net_amount: e.net,
      tax_amount: e.tax,
      total_amount: e.total,
      tax_behavior: e.taxBehavior,
    });
    expect(order.items[0].tax_amount).toBe(e.tax);
    const [displayName, country] = row.item;
    expect(order.tax_breakdown).toEqual([
      {
        rate_type: 'percentage',
        rate: e.rate,
        display_name: displayName,
        country,
        state: null,
        subdivision: null,
        amount: e.tax,
        taxability_reason: e.reason,
      },
    ]);
    expect(charged).toBe(e.total);
  });

  it('takes a discount off before the tax: 10 % off an inclusive price', async () => {
    const id = await eur(PRICE);
    const off = await api('POST', '/v1/discounts/', {
      name: 'Ten percent',
      type: 'percentage',
      duration: 'once',
      basis_points: 1000,
    });
    const paid = PRICE - PRICE / 10;
    const tax = inclusiveTax(paid, 1900);
    const { checkout, order, charged } = await buy(id, { customer_billing_address: DE, discount_id: off.body.id });
    expect(checkout).toMatchObject({
      discount_amount: 1000,
      net_amount: paid - tax,
      tax_amount: tax,
      total_amount: paid,
    });
    expect(order).toMatchObject({
      subtotal_amount: PRICE,
      discount_amount: 1000,
      net_amount: paid - tax,
      tax_amount: tax,
      total_amount: paid,
    });
    expect(charged).toBe(paid);
  });

  it('taxes a zero-decimal currency in whole yen: ¥1,000 to a FR consumer', async () => {
    const id = await product({
      name: 'Yen product',
      prices: [{ amount_type: 'fixed', price_currency: 'jpy', price_amount: 1000 }],
    });
    const tax = inclusiveTax(1000, 2000);
    const { order, charged } = await buy(id, { customer_billing_address: FR });
    expect(order).toMatchObject({ currency: 'jpy', tax_amount: tax, net_amount: 1000 - tax, total_amount: 1000 });
    expect(charged).toBe(1000);
  });

  it('refunds the tax share of a partial refund, and all of what is left with the rest', async () => {
    const { order } = await buy(await eur(PRICE), { customer_billing_address: DE });
    const net = PRICE - deTax;
    const first = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'customer_request', amount: 5000 });
    expect(first.status).toBe(201);
    const share = div(5000n * BigInt(deTax), BigInt(net));
    expect(first.body).toMatchObject({ amount: 5000, tax_amount: share });
    const after = await api('GET', `/v1/orders/${order.id}`);
    expect(after.body).toMatchObject({
      refunded_amount: 5000,
      refunded_tax_amount: share,
      refundable_amount: net - 5000,
      refundable_tax_amount: deTax - share,
      status: 'partially_refunded',
    });
    const rest = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'other', amount: net - 5000 });
    expect(rest.body).toMatchObject({ amount: net - 5000, tax_amount: deTax - share });
    const done = await api('GET', `/v1/orders/${order.id}`);
    expect(done.body).toMatchObject({ refunded_tax_amount: deTax, refundable_tax_amount: 0, status: 'refunded' });
  });
});

describe('evidence', () => {
  it('records the VAT-id check on the checkout’s order (inconclusive accepted) and the buyer’s tax id on the customer', async () => {
    const { order } = await buy(await eur(PRICE), {
      customer_billing_address: FR,
      customer_tax_id: 'FR 44 732 829 320',
    });
    expect(order.customer.tax_id).toEqual([FR_UNCHECKED, 'eu_vat']);
    expect(order.tax_breakdown[0]).toMatchObject({ taxability_reason: 'reverse_charge', country: 'FR' });
    const [stored] = await stack.sandbox.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute('select tax_evidence from billing.orders where id = ?', [order.id]);
    expect(stored.tax_evidence).toMatchObject({
      provider: 'built_in',
      seller_country: 'DE',
      buyer_country: 'FR',
      buyer_postal_code: '75001',
      buyer_tax_id: [FR_UNCHECKED, 'eu_vat'],
      vat_id_check: { result: 'inconclusive', source: 'sandbox' },
    });
  });
});

describe('a subscription: plan change with a proration credit, then the renewal', () => {
  it('taxes each proration line (the credit negatively), previews what it bills, and taxes the renewal with the stored address', async () => {
    const subscriber = await createTenant(stack.sandbox);
    const as = (method: string, path: string, body?: unknown) =>
      call(seller.base, method, path, { token: subscriber.oat, body });
    await as('PATCH', `/v1/organizations/${subscriber.organizationId}`, { country: 'DE' });
    const plan = async (name: string, price: number) =>
      (
        await as('POST', '/v1/products/', {
          name,
          recurring_interval: 'month',
          prices: [{ amount_type: 'fixed', price_currency: 'eur', price_amount: price, tax_behavior: 'exclusive' }],
        })
      ).body.id as string;
    const basic = await plan('Basic', 10000);
    const premium = await plan('Premium', 20000);
    const checkout = await as('POST', '/v1/checkouts/', {
      products: [basic],
      customer_email: email(),
      customer_billing_address: DE,
    });
    await client('POST', checkout.body.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    const first = (await as('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items[0];
    expect(first).toMatchObject({ tax_amount: 1900, total_amount: 11900, tax_behavior: 'exclusive' });
    const subscriptionId = first.subscription_id as string;
    await as('POST', '/v1/sandbox/clock/advance', { seconds: 86_400 });

    const body = { product_id: premium, proration_behavior: 'invoice' };
    const preview = await as('POST', `/v1/subscriptions/${subscriptionId}/update-preview`, body);
    const [credit, debit] = preview.body.items as { amount: number; proration: boolean }[];
    expect(credit.amount).toBeLessThan(0);
    const tax = exclusiveTax(credit.amount, 1900) + exclusiveTax(debit.amount, 1900);
    const subtotal = credit.amount + debit.amount;
    expect(preview.body).toMatchObject({ subtotal_amount: subtotal, tax_amount: tax, total_amount: subtotal + tax });

    expect((await as('PATCH', `/v1/subscriptions/${subscriptionId}`, body)).status).toBe(200);
    const orders = await as('GET', `/v1/orders/?subscription_id=${subscriptionId}&billing_reason=subscription_update`);
    const change = orders.body.items[0];
    expect(change).toMatchObject({ subtotal_amount: subtotal, tax_amount: tax, total_amount: subtotal + tax });
    expect(change.items.map((i: { tax_amount: number }) => i.tax_amount)).toEqual([
      exclusiveTax(credit.amount, 1900),
      exclusiveTax(debit.amount, 1900),
    ]);
    const payments = await as('GET', `/v1/payments/?order_id=${change.id}`);
    expect(payments.body.items[0].amount).toBe(subtotal + tax);

    const subscription = (await as('GET', `/v1/subscriptions/${subscriptionId}`)).body;
    const now = new Date((await as('GET', '/v1/sandbox/clock')).body.now).getTime();
    const seconds = Math.ceil((new Date(subscription.current_period_end).getTime() - now) / 1000) + 1;
    await as('POST', '/v1/sandbox/clock/advance', { seconds });
    const cycle = await as('GET', `/v1/orders/?subscription_id=${subscriptionId}&billing_reason=subscription_cycle`);
    expect(cycle.body.items[0]).toMatchObject({
      subtotal_amount: 20000,
      tax_amount: exclusiveTax(20000, 1900),
      total_amount: 20000 + exclusiveTax(20000, 1900),
      tax_behavior: 'exclusive',
      status: 'paid',
    });
  });
});

describe('bad input: 422 at the right place, and the checkout as it was', () => {
  const open = async (details: Record<string, unknown> = {}) => {
    const created = await api('POST', '/v1/checkouts/', { products: [await eur(PRICE)], ...details });
    expect(created.status).toBe(201);
    return created.body as { id: string; client_secret: string; tax_amount: number | null };
  };
  const refused = (res: { status: number; body: any }, loc: string[], msg: string) => {
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([expect.objectContaining({ loc, msg })]);
  };
  const unchanged = async (checkout: { id: string }, fields: Record<string, unknown>) => {
    const now = await api('GET', `/v1/checkouts/${checkout.id}`);
    expect(now.body).toMatchObject({ status: 'open', ...fields });
  };

  it('refuses an invalid tax id, an id of another country, and an id VIES says is not registered', async () => {
    const productId = await eur(PRICE);
    refused(
      await api('POST', '/v1/checkouts/', {
        products: [productId],
        customer_billing_address: FR,
        customer_tax_id: 'FR11123456783',
      }),
      ['body', 'customer_tax_id'],
      'Invalid tax ID.',
    );
    expect((await api('GET', `/v1/checkouts/?product_id=${productId}`)).body.items).toEqual([]);
    const checkout = await open({ customer_billing_address: FR });
    refused(
      await client('PATCH', checkout.client_secret, '', { customer_tax_id: 'DE123456788' }),
      ['body', 'customer_tax_id'],
      'Tax ID does not match the billing country.',
    );
    refused(
      await client('PATCH', checkout.client_secret, '', {
        customer_billing_address: { ...CANARY, postal_code: '28001', city: 'Madrid' },
        customer_tax_id: 'ESB12345674',
      }),
      ['body', 'customer_tax_id'],
      'This VAT number is not registered (VIES)',
    );
    await unchanged(checkout, {
      customer_tax_id: null,
      tax_amount: frTax,
      customer_billing_address: { country: 'FR' },
    });
  });

  it('needs an address it can tax at confirm: none, then one without a postal code', async () => {
    const checkout = await open({ customer_email: email() });
    expect(checkout.tax_amount).toBeNull();
    const confirm = () => client('POST', checkout.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    refused(await confirm(), ['body', 'customer_billing_address'], 'A billing address is required to compute tax.');
    const partial = await client('PATCH', checkout.client_secret, '', { customer_billing_address: { country: 'FR' } });
    expect(partial.body.tax_amount).toBeNull();
    refused(
      await confirm(),
      ['body', 'customer_billing_address', 'postal_code'],
      'A postal code is required to compute tax for this country.',
    );
    await unchanged(checkout, { tax_amount: null });
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items).toEqual([]);
  });

  it('asks for the country before it validates a tax id', async () => {
    refused(
      await api('POST', '/v1/checkouts/', { products: [await eur(PRICE)], customer_tax_id: FR_VALID }),
      ['body', 'customer_billing_address'],
      'Country is required to validate tax ID.',
    );
  });
});
