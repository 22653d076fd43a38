import { ManualClock } from '../../kit/clock.js';
import type { TaxBreakdownItem } from '../../subgraphs/billing/tax/tax.contract.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The tax reports (docs/tax-reports.md) through the public REST API, to the cent. Sales are made in the
 * sandbox through checkouts (test processor) on days the test's clock sets, and refunded through
 * `POST /v1/refunds/`. Tax computation is not part of this branch's checkouts, so each order's net, tax
 * and breakdown are then written in SQL, as a computed tax would have stored them (`setTax`); the
 * refunds, made after, give back their share of that tax through the refund rules.
 */
const clock = new ManualClock(new Date('2026-01-10T10:00:00Z'));
let stack: TestStack;
let seller: Tenant;
let other: Tenant;
let base: string;

const sql = (text: string, values: unknown[]) =>
  stack.sandbox.environment.billing.orm.em.fork().getConnection().execute(text, values);
const get = (path: string, token = seller.oat) => call(base, 'GET', path, { token });

const item = (country: string | null, rate: number | null, amount: number, over: Partial<TaxBreakdownItem> = {}) =>
  ({
    rate_type: 'percentage',
    rate,
    display_name: 'Tax',
    country,
    state: null,
    subdivision: null,
    amount,
    taxability_reason: 'standard_rated',
    ...over,
  }) satisfies TaxBreakdownItem;

async function product(token: string, priceAmount: number, currency: string): Promise<string> {
  const res = await call(base, 'POST', '/v1/products/', {
    token,
    body: {
      name: `Licence ${priceAmount} ${currency}`,
      prices: [{ amount_type: 'fixed', price_amount: priceAmount, price_currency: currency }],
    },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** A checkout paid with the test card on `day` (10:00 UTC); its order's id. */
async function sell(token: string, productId: string, day: string): Promise<string> {
  clock.set(new Date(`${day}T10:00:00Z`));
  const checkout = await call(base, 'POST', '/v1/checkouts/', {
    token,
    body: { products: [productId], customer_email: `buyer-${day}@example.com` },
  });
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const orders = await call(base, 'GET', `/v1/orders/?checkout_id=${checkout.body.id}`, { token });
  expect(orders.body.items[0].created_at.startsWith(`${day}T10:00:00`)).toBe(true);
  return orders.body.items[0].id;
}

/** The order's tax as the checkout would have stored it: net + tax is what was charged. */
async function setTax(orderId: string, net: number, tax: number, breakdown: TaxBreakdownItem[]) {
  await sql(
    `update billing.orders set subtotal_amount = ?, discount_amount = 0, tax_amount = ?, tax_behavior = 'exclusive',
       tax_breakdown = ?::jsonb where id = ?`,
    [net, tax, JSON.stringify(breakdown), orderId],
  );
}

async function refund(orderId: string, amount: number, expectedTax: number) {
  const res = await call(base, 'POST', '/v1/refunds/', {
    token: seller.oat,
    body: { order_id: orderId, reason: 'customer_request', amount },
  });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ status: 'succeeded', amount, tax_amount: expectedTax });
}

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  base = stack.sandbox.baseUrl;
  seller = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
  const patched = await call(base, 'PATCH', `/v1/organizations/${seller.organizationId}`, {
    token: seller.oat,
    body: { default_presentment_currency: 'eur' },
  });
  expect(patched.status).toBe(200);

  const [de, fr, reverse, ca, ny, plain] = [
    await product(seller.oat, 11_900, 'eur'),
    await product(seller.oat, 12_000, 'eur'),
    await product(seller.oat, 10_000, 'eur'),
    await product(seller.oat, 10_725, 'usd'),
    await product(seller.oat, 10_888, 'usd'),
    await product(seller.oat, 10_000, 'usd'),
  ];
  const otherDe = await product(other.oat, 11_900, 'eur');

  await setTax(await sell(seller.oat, de, '2026-01-10'), 10_000, 1900, [item('DE', 19, 1900)]);
  await setTax(await sell(other.oat, otherDe, '2026-01-10'), 10_000, 1900, [item('DE', 19, 1900)]);
  const frPartial = await sell(seller.oat, fr, '2026-01-15');
  await setTax(frPartial, 10_000, 2000, [item('FR', 20, 2000)]);
  const frFull = await sell(seller.oat, fr, '2026-01-20');
  await setTax(frFull, 10_000, 2000, [item('FR', 20, 2000)]);
  await setTax(await sell(seller.oat, reverse, '2026-02-05'), 10_000, 0, [
    item('FR', 0, 0, { taxability_reason: 'reverse_charge' }),
  ]);
  await setTax(await sell(seller.oat, ca, '2026-02-10'), 10_000, 725, [item('US', 7.25, 725, { state: 'CA' })]);
  // Collected nothing: a 0 not_collecting item, and an order from before tax (no breakdown).
  await setTax(await sell(seller.oat, plain, '2026-02-11'), 10_000, 0, [
    item('GB', null, 0, { taxability_reason: 'not_collecting' }),
  ]);
  await sell(seller.oat, plain, '2026-02-12');
  const nyOrder = await sell(seller.oat, ny, '2026-03-01');
  await setTax(nyOrder, 10_000, 888, [item('US', 4, 400, { state: 'NY' }), item('US', 4.875, 488, { state: 'NY' })]);

  // Refunded in March: each reduces its own order's period.
  clock.set(new Date('2026-03-02T10:00:00Z'));
  await refund(frPartial, 5000, 1000);
  await refund(frFull, 10_000, 2000);
  await refund(nyOrder, 3333, 296);
}, 180_000);

const jurisdiction = (country: string, state: string | null, currency: string, tax: number, orders: number) => ({
  id: state ? `${country}-${state}` : country,
  country,
  state,
  currency,
  tax_amount: tax,
  order_count: orders,
  country_name: { DE: 'Germany', FR: 'France', US: 'United States' }[country],
  state_name: state ? { CA: 'California', NY: 'New York' }[state] : null,
});
const DE = jurisdiction('DE', null, 'eur', 1900, 1);
const FR = jurisdiction('FR', null, 'eur', 1000, 3);
const US_CA = jurisdiction('US', 'CA', 'usd', 725, 1);
const US_NY = jurisdiction('US', 'NY', 'usd', 592, 1);

describe('GET /v1/taxes/jurisdictions', () => {
  it('nets refunds, counts every paid order with tax, largest tax first', async () => {
    const res = await get('/v1/taxes/jurisdictions');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [DE, FR, US_CA, US_NY], pagination: { total_count: 4, max_page: 1 } });
  });

  it('pages and sorts like every list', async () => {
    const second = await get('/v1/taxes/jurisdictions?limit=2&page=2');
    expect(second.body).toEqual({ items: [US_CA, US_NY], pagination: { total_count: 4, max_page: 2 } });
    const byCount = await get('/v1/taxes/jurisdictions?sorting=-order_count');
    expect(byCount.body.items.map((j: { id: string }) => j.id)).toEqual(['FR', 'DE', 'US-CA', 'US-NY']);
    const byCountry = await get('/v1/taxes/jurisdictions?sorting=-country');
    expect(byCountry.body.items.map((j: { id: string }) => j.id)).toEqual(['US-CA', 'US-NY', 'FR', 'DE']);
  });

  it('filters by order day, both ends included', async () => {
    const february = await get('/v1/taxes/jurisdictions?start_date=2026-02-01&end_date=2026-02-28');
    expect(february.body.items).toEqual([US_CA, jurisdiction('FR', null, 'eur', 0, 1)]);
    const untilMidJanuary = await get('/v1/taxes/jurisdictions?end_date=2026-01-15');
    expect(untilMidJanuary.body.items).toEqual([DE, jurisdiction('FR', null, 'eur', 1000, 1)]);
    const march = await get('/v1/taxes/jurisdictions?start_date=2026-03-01');
    expect(march.body.items).toEqual([US_NY]);
  });

  it("never counts another organization's orders", async () => {
    const own = await get('/v1/taxes/jurisdictions', other.oat);
    expect(own.body.items).toEqual([jurisdiction('DE', null, 'eur', 1900, 1)]);
    const foreign = await get(`/v1/taxes/jurisdictions?organization_id=${other.organizationId}`);
    expect(foreign.body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    const asUser = await get(`/v1/taxes/jurisdictions?organization_id=${seller.organizationId}`, seller.pat);
    expect(asUser.body.items).toEqual([DE, FR, US_CA, US_NY]);
  });
});

describe('GET /v1/taxes/summary', () => {
  it("answers in the organization's currency by default, or the one asked", async () => {
    expect((await get('/v1/taxes/summary')).body).toEqual({
      currency: 'eur',
      tax_amount: 2900,
      order_count: 4,
      jurisdiction_count: 2,
    });
    expect((await get('/v1/taxes/summary?currency=USD')).body).toEqual({
      currency: 'usd',
      tax_amount: 1317,
      order_count: 2,
      jurisdiction_count: 2,
    });
    expect((await get('/v1/taxes/summary?start_date=2026-01-16&end_date=2026-01-31')).body).toEqual({
      currency: 'eur',
      tax_amount: 0,
      order_count: 1,
      jurisdiction_count: 1,
    });
  });
});

const RATES = [
  { country: 'DE', state: null, rate: 19, currency: 'eur', net_amount: 10_000, tax_amount: 1900, order_count: 1 },
  { country: 'FR', state: null, rate: 0, currency: 'eur', net_amount: 10_000, tax_amount: 0, order_count: 1 },
  { country: 'FR', state: null, rate: 20, currency: 'eur', net_amount: 5000, tax_amount: 1000, order_count: 2 },
  { country: 'US', state: 'CA', rate: 7.25, currency: 'usd', net_amount: 10_000, tax_amount: 725, order_count: 1 },
  { country: 'US', state: 'NY', rate: 4, currency: 'usd', net_amount: 3003, tax_amount: 267, order_count: 1 },
  { country: 'US', state: 'NY', rate: 4.875, currency: 'usd', net_amount: 3664, tax_amount: 325, order_count: 1 },
];

describe('GET /v1/taxes/rates and its CSV export', () => {
  it('gives net and tax per country, state, rate and currency, refunds split to the cent', async () => {
    const res = await get('/v1/taxes/rates?limit=100');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: RATES, pagination: { total_count: 6, max_page: 1 } });
    const january = await get('/v1/taxes/rates?start_date=2026-01-01&end_date=2026-01-31');
    expect(january.body.items).toEqual([RATES[0], RATES[2]]);
  });

  it('exports the same rows as CSV', async () => {
    const res = await get('/v1/taxes/rates/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.text).toBe(
      [
        'country,state,rate,currency,net_amount,tax_amount,order_count',
        'DE,,19,eur,10000,1900,1',
        'FR,,0,eur,10000,0,1',
        'FR,,20,eur,5000,1000,2',
        'US,CA,7.25,usd,10000,725,1',
        'US,NY,4,usd,3003,267,1',
        'US,NY,4.875,usd,3664,325,1',
        '',
      ].join('\r\n'),
    );
    const foreign = await get(`/v1/taxes/rates/export?organization_id=${other.organizationId}`);
    expect(foreign.text).toBe('country,state,rate,currency,net_amount,tax_amount,order_count\r\n');
  });
});

describe('access and bad input', () => {
  it('needs transactions:read and a user or organization', async () => {
    const ordersOnly = await stack.sandbox.admin.createOrganizationAccessToken(seller.organizationId, ['orders:read']);
    expect((await get('/v1/taxes/summary', ordersOnly)).status).toBe(403);
    const writer = await stack.sandbox.admin.createOrganizationAccessToken(seller.organizationId, [
      'transactions:write',
    ]);
    expect((await get('/v1/taxes/summary', writer)).status).toBe(200);
    expect((await call(base, 'GET', '/v1/taxes/jurisdictions')).status).toBe(401);
  });

  it.each([
    ['/v1/taxes/jurisdictions?start_date=2026-02-30', ['query', 'start_date']],
    ['/v1/taxes/rates?end_date=yesterday', ['query', 'end_date']],
    ['/v1/taxes/jurisdictions?sorting=amount', ['query', 'sorting', 0]],
    ['/v1/taxes/summary?currency=euro', ['query', 'currency']],
    ['/v1/taxes/rates/export?organization_id=nope', ['query', 'organization_id', 0]],
  ])('answers 422 for %s', async (path, loc) => {
    const res = await get(path);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(loc);
  });
});
