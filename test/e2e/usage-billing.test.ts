import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { calls, lines, times, usageMerchant } from '../support/usage-billing.js';

/**
 * Usage billing through the public API (docs/usage-billing.md): metered prices on products (Polar's shape and
 * 422s), checkouts of such products (nothing charged up front for usage), and the sandbox clock driving renewals
 * whose orders carry one line per metered price. Credits, customer meters and the killed job:
 * usage-billing-credits.test.ts.
 */
jest.setTimeout(120_000);
const START = new Date('2028-01-31T09:30:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
  shop = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
}, 120_000);

function api(method: string, path: string, body?: unknown, token = shop.oat) {
  return call(base, method, path, { token, body });
}
async function meter(name: string, aggregation: unknown = { func: 'count' }, token = shop.oat) {
  const res = await api('POST', '/v1/meters/', { name, filter: calls, aggregation }, token);
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

describe('metered prices', () => {
  it("creates a recurring product with a fixed and a metered price, answered in Polar's shape", async () => {
    const m = await meter('Calls');
    const res = await api('POST', '/v1/products/', {
      name: 'API plan',
      recurring_interval: 'month',
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: m.id, unit_amount: '0.5', cap_amount: 300 },
      ],
    });
    expect(res.status).toBe(201);
    const metered = res.body.prices[1];
    expect(metered).toEqual({
      created_at: expect.any(String),
      modified_at: null,
      id: expect.any(String),
      source: 'catalog',
      amount_type: 'metered_unit',
      price_currency: 'usd',
      tax_behavior: null,
      is_archived: false,
      product_id: res.body.id,
      type: 'recurring',
      recurring_interval: 'month',
      cap_amount: 300,
      meter_id: m.id,
      meter: { id: m.id, name: 'Calls', unit: 'scalar', custom_label: null, custom_multiplier: null },
      unit_amount: '0.500000000000',
    });
    const read = await api('GET', `/v1/products/${res.body.id}`);
    const byId = (prices: any[]) => [...prices].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(read.body.prices)).toEqual(byId(res.body.prices));
    // A meter a live price bills cannot be archived.
    const archive = await api('PATCH', `/v1/meters/${m.id}`, { is_archived: true });
    expect(archive.status).toBe(422);
    expect(archive.body.detail[0].loc).toEqual(['body', 'is_archived']);
  });

  it("refuses bad metered prices with Polar's 422 at the price's field, and creates nothing", async () => {
    const m = await meter('Calls two');
    const foreign = await meter('Theirs', { func: 'count' }, other.oat);
    const attempt = async (price: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const res = await api('POST', '/v1/products/', {
        name: 'Bad plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1000 }, price],
        ...extra,
      });
      expect(res.status).toBe(422);
      return res.body.detail.map((d: any) => [d.loc, d.type ?? null]);
    };
    const metered = { amount_type: 'metered_unit', meter_id: m.id };
    expect(await attempt({ ...metered, unit_amount: '0' })).toEqual([
      [['body', 'prices', 1, 'unit_amount'], 'greater_than'],
    ]);
    expect(await attempt({ ...metered, unit_amount: '0.0000000000001' })).toEqual([
      [['body', 'prices', 1, 'unit_amount'], 'decimal_max_places'],
    ]);
    expect(await attempt({ ...metered, unit_amount: 'abc' })).toEqual([
      [['body', 'prices', 1, 'unit_amount'], 'decimal_parsing'],
    ]);
    expect(await attempt({ ...metered, unit_amount: '1', cap_amount: -1 })).toEqual([
      [['body', 'prices', 1, 'cap_amount'], 'greater_than_equal'],
    ]);
    const unknown = await attempt({ ...metered, meter_id: foreign.id, unit_amount: '1' });
    expect(unknown).toEqual([[['body', 'prices', 1, 'meter_id'], 'value_error']]);
    const twice = await api('POST', '/v1/products/', {
      name: 'Twice',
      recurring_interval: 'month',
      prices: [
        { ...metered, unit_amount: '1' },
        { ...metered, unit_amount: '2' },
      ],
    });
    expect([twice.status, twice.body.detail?.[0]?.loc]).toEqual([422, ['body', 'prices', 1, 'meter_id']]);
    const oneTime = await api('POST', '/v1/products/', {
      name: 'One time',
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { ...metered, unit_amount: '1' },
      ],
    });
    expect([oneTime.status, oneTime.body.detail?.[0]?.loc]).toEqual([422, ['body', 'prices', 1]]);
    // A separate meter cycle: Polar's `meter_cycling_enabled` flag is off, so it is refused (null is fine).
    const cycled = await api('POST', '/v1/products/', {
      name: 'Bad plan',
      recurring_interval: 'year',
      meter_interval: 'month',
      prices: [{ ...metered, unit_amount: '1' }],
    });
    expect([cycled.status, cycled.body.detail]).toEqual([
      422,
      [
        {
          type: 'value_error',
          loc: ['body', 'meter_interval'],
          msg: 'Separate meter cycling is not enabled for this organization.',
          input: 'month',
        },
      ],
    ]);
    const plain = await api('POST', '/v1/products/', {
      name: 'Yearly plan',
      recurring_interval: 'year',
      meter_interval: null,
      prices: [{ ...metered, unit_amount: '1' }],
    });
    expect([plain.status, plain.body.meter_interval]).toEqual([201, null]);
    const list = await api('GET', '/v1/products/?limit=100');
    expect(list.body.items.map((p: any) => p.name)).not.toContain('Bad plan');
  });

  it('a checkout of a metered product charges the static price only, and the subscription carries both', async () => {
    const m = await meter('Calls three');
    const product = await api('POST', '/v1/products/', {
      name: 'Checkout plan',
      recurring_interval: 'month',
      prices: [
        { amount_type: 'metered_unit', meter_id: m.id, unit_amount: '2' },
        { amount_type: 'fixed', price_amount: 900 },
      ],
    });
    const checkout = await api('POST', '/v1/checkouts/', {
      customer_email: 'buyer@example.com',
      products: [product.body.id],
    });
    expect(checkout.status).toBe(201);
    expect(checkout.body).toMatchObject({ amount: 900, total_amount: 900 });
    expect(checkout.body.product_price.amount_type).toBe('fixed');
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    const subs = await api('GET', '/v1/subscriptions/?limit=100');
    const sub = subs.body.items.find((s: any) => s.checkout_id === checkout.body.id);
    expect(sub.amount).toBe(900);
    expect(sub.prices.map((p: any) => p.amount_type)).toEqual(['fixed', 'metered_unit']);
  });
});

describe('usage on the renewal order', () => {
  it('1,001 units at "0.5" bill 501 (half away from zero) on the next renewal, with Polar\'s label', async () => {
    const m = await usageMerchant(stack);
    const { meterId, plan } = await m.meteredPlan('0.5');
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    // A back-dated event (its timestamp long before the subscription) lands in the period it was ingested in.
    await m.ingest(sub.customer_id, [{ timestamp: '2027-06-01T00:00:00Z' }]);
    // The clock's advance runs the billing job: the subscription shows the usage so far and its estimated charge.
    await m.advance('2028-02-01T00:00:00.000Z');
    const estimated = (await m.req('GET', `/v1/subscriptions/${sub.id}`)).body.meters;
    expect(estimated).toEqual([
      expect.objectContaining({ consumed_units: 1002, credited_units: 0, amount: 501, meter_id: meterId }),
    ]);
    expect(estimated[0].meter).toMatchObject({ id: meterId, name: 'Calls', aggregation: { func: 'count' } });
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)).toEqual([
      ['Plan', 1000],
      ['Calls — (1,002 consumed units) × $0.005', 501],
    ]);
    expect(order).toMatchObject({ subtotal_amount: 1501, total_amount: 1501, status: 'paid' });
    // Usage of the next period goes on the next order, and what was billed is not billed again.
    await m.ingest(sub.customer_id, times(10));
    await m.advance('2028-03-31T09:30:00.002Z');
    const [, second] = await m.cycleOrders(sub.id);
    expect((await m.req('GET', `/v1/subscriptions/${sub.id}`)).body.meters[0]).toMatchObject({ amount: 0 });
    expect(lines(second)).toEqual([
      ['Plan', 1000],
      ['Calls — (10 consumed units) × $0.005', 5],
    ]);
  });

  it('caps the line at cap_amount, and says so', async () => {
    const m = await usageMerchant(stack);
    const meterId = await m.meterOf('Calls');
    const plan = await m.product({
      prices: [{ amount_type: 'metered_unit', meter_id: meterId, unit_amount: '0.5', cap_amount: 300 }],
    });
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)).toContainEqual(['Calls — (1,001 consumed units) × $0.005 — Capped at $3.00', 300]);
    expect(order.total_amount).toBe(300);
  });

  it('bills every aggregation over the period: count, sum, max, min, avg and unique', async () => {
    const m = await usageMerchant(stack);
    const aggregations = {
      Count: { func: 'count' },
      Sum: { func: 'sum', property: 'tokens' },
      Max: { func: 'max', property: 'tokens' },
      Min: { func: 'min', property: 'tokens' },
      Avg: { func: 'avg', property: 'tokens' },
      Unique: { func: 'unique', property: 'model' },
    };
    const prices = [];
    for (const [name, aggregation] of Object.entries(aggregations))
      prices.push({ amount_type: 'metered_unit', meter_id: await m.meterOf(name, aggregation), unit_amount: '100' });
    const sub = await m.subscribe(await m.product({ prices }));
    await m.ingest(sub.customer_id, [
      { metadata: { tokens: 10, model: 'a' } },
      { metadata: { tokens: 30, model: 'b' } },
      { metadata: { tokens: 5, model: 'a' } },
    ]);
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    // The lines follow the subscription's prices, made in one create (same instant): compare them sorted.
    expect(lines(order).slice(1).sort()).toEqual([
      ['Avg — (15 consumed units) × $1.00', 1500],
      ['Count — (3 consumed units) × $1.00', 300],
      ['Max — (30 consumed units) × $1.00', 3000],
      ['Min — (5 consumed units) × $1.00', 500],
      ['Sum — (45 consumed units) × $1.00', 4500],
      ['Unique — (2 consumed units) × $1.00', 200],
    ]);
  });

  it("a discount applies to the price and the usage lines (Polar's discountable items)", async () => {
    const m = await usageMerchant(stack);
    const { plan } = await m.meteredPlan('2');
    const discount = await m.req('POST', '/v1/discounts/', {
      name: 'Tenth off',
      type: 'percentage',
      basis_points: 1000,
      duration: 'forever',
    });
    expect(discount.status).toBe(201);
    const sub = await m.subscribe(plan, { discount_id: discount.body.id });
    await m.ingest(sub.customer_id, times(10));
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)).toEqual([
      ['Plan', 1000],
      ['Calls — (10 consumed units) × $0.02', 20],
    ]);
    expect(order).toMatchObject({ subtotal_amount: 1020, discount_amount: 102, total_amount: 918 });
  });

  it('does not bill usage ingested during a trial', async () => {
    const m = await usageMerchant(stack);
    const { plan } = await m.meteredPlan('1', { trial_interval: 'day', trial_interval_count: 7 });
    const sub = await m.subscribe(plan);
    expect(sub.status).toBe('trialing');
    await m.ingest(sub.customer_id, times(50));
    await m.advance('2028-02-08T00:00:00.000Z');
    await m.ingest(sub.customer_id, times(3));
    await m.advance('2028-03-08T00:00:00.000Z');
    const orders = await m.cycleOrders(sub.id);
    const usage = orders.flatMap(o => o.items).filter((i: any) => i.label.startsWith('Calls'));
    expect(usage.map((i: any) => [i.label, i.amount])).toEqual([['Calls — (3 consumed units) × $0.01', 3]]);
  });

  it('a cancellation at period end still bills the last period: a final order with the usage only', async () => {
    const m = await usageMerchant(stack);
    const { plan } = await m.meteredPlan('2');
    const sub = await m.subscribe(plan);
    const quiet = await m.subscribe(plan);
    for (const id of [sub.id, quiet.id])
      expect((await m.req('PATCH', `/v1/subscriptions/${id}`, { cancel_at_period_end: true })).status).toBe(200);
    await m.ingest(sub.customer_id, times(7));
    await m.advance('2028-02-29T09:30:00.002Z');
    expect((await m.req('GET', `/v1/subscriptions/${sub.id}`)).body).toMatchObject({ status: 'canceled' });
    const [order, ...more] = await m.cycleOrders(sub.id);
    expect(more).toEqual([]);
    expect(lines(order)).toEqual([['Calls — (7 consumed units) × $0.02', 14]]);
    expect(order).toMatchObject({ subtotal_amount: 14, total_amount: 14, status: 'paid' });
    // Nothing pending, no order (Polar's); and nothing is billed after the end.
    expect(await m.cycleOrders(quiet.id)).toEqual([]);
    await m.ingest(sub.customer_id, times(3));
    await m.advance('2028-03-31T09:30:00.002Z');
    expect(await m.cycleOrders(sub.id)).toHaveLength(1);
  });
});
