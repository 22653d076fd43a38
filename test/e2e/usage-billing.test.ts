import { describe, expect, it, jest } from '@jest/globals';
import { ManualClock } from '../../kit/clock.js';
import { BillingEntryQueries } from '../../subgraphs/billing/usage-billing/billing-entries.queries.js';
import { billUsage } from '../../subgraphs/billing/usage-billing/usage-billing.job.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Usage billing through the public API (docs/usage-billing.md): metered prices on products (Polar's shape and
 * 422s), checkouts of such products (nothing charged up front for usage), and the sandbox clock driving renewals
 * whose orders carry one line per metered price.
 */
jest.setTimeout(120_000);
const START = new Date('2028-01-31T09:30:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await startTestStack('usage_billing', wall);
  base = stack.sandbox.baseUrl;
  shop = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

function api(method: string, path: string, body?: unknown, token = shop.oat) {
  return call(base, method, path, { token, body });
}
const calls = { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] };
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

/** A tenant of its own per scenario: its clock starts at the wall clock. */
async function merchant() {
  const owner = await createTenant(stack.sandbox);
  const req = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
  const meterOf = async (name: string, aggregation: unknown = { func: 'count' }) => {
    const res = await req('POST', '/v1/meters/', { name, filter: calls, aggregation });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const product = async (body: Record<string, unknown>) => {
    const res = await req('POST', '/v1/products/', { recurring_interval: 'month', name: 'Plan', ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id as string;
  };
  const subscribe = async (productId: string) => {
    const checkout = await req('POST', '/v1/checkouts/', {
      customer_email: 'buyer@example.com',
      products: [productId],
    });
    expect(checkout.status).toBe(201);
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    const list = await req('GET', '/v1/subscriptions/?limit=100');
    const sub = list.body.items.find((x: any) => x.checkout_id === checkout.body.id) as Record<string, any>;
    // The test's wall clock stands still and a sale is stamped 2 ms after its confirm: usage comes a minute later.
    const later = new Date(new Date(sub.started_at).getTime() + 60_000).toISOString();
    expect((await req('POST', '/v1/sandbox/clock/advance', { to: later })).status).toBe(200);
    return sub;
  };
  const ingest = async (customerId: string, events: Record<string, unknown>[]) => {
    for (let i = 0; i < events.length; i += 500) {
      const res = await req('POST', '/v1/events/ingest', {
        events: events.slice(i, i + 500).map(e => ({ name: 'api.call', customer_id: customerId, ...e })),
      });
      expect(res.status).toBe(200);
    }
  };
  const advance = async (to: string) => {
    const res = await req('POST', '/v1/sandbox/clock/advance', { to });
    expect(res.status).toBe(200);
  };
  const cycleOrders = async (subscriptionId: string) => {
    const res = await req('GET', `/v1/orders/?subscription_id=${subscriptionId}&limit=100&sorting=created_at`);
    return (res.body.items as Record<string, any>[]).filter(o => o.billing_reason === 'subscription_cycle');
  };
  return { owner, req, meterOf, product, subscribe, ingest, advance, cycleOrders };
}
const lines = (order: Record<string, any>) => order.items.map((i: any) => [i.label, i.amount]);
const times = (n: number, extra: Record<string, unknown> = {}) => Array.from({ length: n }, () => ({ ...extra }));

describe('usage on the renewal order', () => {
  it('1,001 units at "0.5" bill 501 (half away from zero) on the next renewal, with Polar\'s label', async () => {
    const m = await merchant();
    const meterId = await m.meterOf('Calls');
    const plan = await m.product({
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: meterId, unit_amount: '0.5' },
      ],
    });
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
    const m = await merchant();
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
    const m = await merchant();
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

  it('does not bill usage ingested during a trial', async () => {
    const m = await merchant();
    const meterId = await m.meterOf('Calls');
    const plan = await m.product({
      trial_interval: 'day',
      trial_interval_count: 7,
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: meterId, unit_amount: '1' },
      ],
    });
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
});

describe('meter credits and customer meters', () => {
  async function creditPlan(m: Awaited<ReturnType<typeof merchant>>, units: number, rollover: boolean, cap?: number) {
    const meterId = await m.meterOf('Calls');
    const benefit = await m.req('POST', '/v1/benefits/', {
      type: 'meter_credit',
      description: 'Included calls',
      properties: { units, rollover, meter_id: meterId },
    });
    expect(benefit.status).toBe(201);
    const plan = await m.product({
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: meterId, unit_amount: '0.5', ...(cap ? { cap_amount: cap } : {}) },
      ],
    });
    expect((await m.req('POST', `/v1/products/${plan}/benefits`, { benefits: [benefit.body.id] })).status).toBe(200);
    return { meterId, plan };
  }
  const customerMeter = async (m: Awaited<ReturnType<typeof merchant>>, customerId: string, meterId: string) => {
    const res = await m.req('GET', `/v1/customer-meters/?customer_id=${customerId}&meter_id=${meterId}`);
    expect(res.status).toBe(200);
    return res.body.items[0] as Record<string, any>;
  };

  it('1,001 units at "0.5" with 100 credited bill 451; the customer meter shows consumed, credited, balance', async () => {
    const m = await merchant();
    const { meterId, plan } = await creditPlan(m, 100, false);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    await m.advance('2028-02-01T00:00:00.000Z');
    const meter = await customerMeter(m, sub.customer_id, meterId);
    expect(meter).toMatchObject({ consumed_units: 1001, credited_units: 100, balance: -901, meter_id: meterId });
    expect(meter.customer.id).toBe(sub.customer_id);
    expect((await m.req('GET', `/v1/customer-meters/${meter.id}`)).body).toEqual(meter);
    // Credits are recorded in the usage stream as system events.
    const credited = await m.req('GET', '/v1/events/?name=meter.credited');
    expect(credited.body.items[0]).toMatchObject({ source: 'system', metadata: { meter_id: meterId, units: 100 } });
    // Another organization never sees it.
    const theirs = await call(base, 'GET', `/v1/customer-meters/${meter.id}`, { token: other.oat });
    expect(theirs.status).toBe(404);
    const theirList = await call(base, 'GET', '/v1/customer-meters/', { token: other.oat });
    expect(theirList.body.items).toEqual([]);
    // The customer's portal shows the same meter.
    const session = await m.req('POST', '/v1/customer-sessions/', { customer_id: sub.customer_id });
    const portal = await call(base, 'GET', '/v1/customer-portal/meters/', { token: session.body.token });
    expect(portal.body.items.map((i: any) => [i.id, i.balance])).toEqual([[meter.id, -901]]);

    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)).toEqual([
      ['Plan', 1000],
      ['Calls — (901 consumed units) × $0.005', 451],
    ]);
  });

  it('with cap_amount 300 the same usage bills 300', async () => {
    const m = await merchant();
    const { plan } = await creditPlan(m, 100, false, 300);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (901 consumed units) × $0.005 — Capped at $3.00', 300]);
  });

  it('rolls unused credits over at the renewal, then credits the period again', async () => {
    const m = await merchant();
    const { meterId, plan } = await creditPlan(m, 100, true);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(30));
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (0 consumed units) × $0.005', 0]);
    await m.advance('2028-03-01T00:00:00.000Z');
    expect(await customerMeter(m, sub.customer_id, meterId)).toMatchObject({
      consumed_units: 0,
      credited_units: 170,
      balance: 170,
    });
  });

  it('debits the credit when the benefit is revoked', async () => {
    const m = await merchant();
    const { meterId, plan } = await creditPlan(m, 100, false);
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(10));
    expect((await m.req('DELETE', `/v1/subscriptions/${sub.id}`)).status).toBe(200);
    await m.advance('2028-02-01T00:00:00.000Z');
    expect(await customerMeter(m, sub.customer_id, meterId)).toMatchObject({
      consumed_units: 10,
      credited_units: 0,
      balance: -10,
    });
    const credits = await m.req('GET', '/v1/events/?name=meter.credited&sorting=timestamp');
    expect(credits.body.items.map((e: any) => e.metadata.units).sort()).toEqual([-100, 100]);
  });
});

describe('the billing job killed mid-run', () => {
  it('bills each event exactly once: a step whose session dies rolls back, and concurrent re-runs write nothing twice', async () => {
    const m = await merchant();
    const meterId = await m.meterOf('Calls');
    const sub = await m.subscribe(
      await m.product({ prices: [{ amount_type: 'metered_unit', meter_id: meterId, unit_amount: '1' }] }),
    );
    await m.ingest(sub.customer_id, times(2500));
    const orm = stack.sandbox.environment.billing.orm;
    const db = orm.em.fork().getConnection();
    const org = m.owner.organizationId;
    // Whatever the job did already is undone, so the killed step has the whole backlog in front of it.
    await db.execute('delete from billing.billing_entries where organization_id = ?', [org]);
    await db.execute('delete from billing.usage_billing_cursors where organization_id = ?', [org]);
    const far = new Date('2100-01-01T00:00:00Z');
    // The step writes its entries and moves the cursor, then its database session is killed before the commit.
    await expect(
      orm.em.fork().transactional(async tx => {
        const step = await new BillingEntryQueries(tx).step(org, far, 1000, new Date());
        expect(step.billed).toBe(1000);
        await tx.getConnection().execute('select pg_terminate_backend(pg_backend_pid())');
      }),
    ).rejects.toThrow();
    const [left] = await db.execute(
      'select count(*)::int as n from billing.billing_entries where organization_id = ?',
      [org],
    );
    expect(left.n).toBe(0);
    // Three runs at once (and the service's own sweep, woken by the ingest) finish the work.
    await Promise.all([billUsage(orm.em, org, far), billUsage(orm.em, org, far), billUsage(orm.em, org, far)]);
    const [entries] = await db.execute(
      'select count(*)::int as n, count(distinct event_id)::int as events from billing.billing_entries where organization_id = ?',
      [org],
    );
    expect(entries).toEqual({ n: 2500, events: 2500 });
    await m.advance('2028-02-29T09:30:00.002Z');
    const [order] = await m.cycleOrders(sub.id);
    expect(lines(order)[1]).toEqual(['Calls — (2,500 consumed units) × $0.01', 2500]);
  });
});
