import { ManualClock } from '../../kit/clock.js';
import { bucketing, churnRate, expected, type Row } from '../support/metrics-expected.js';
import { call, createTenant, everyPage, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * `GET /v1/metrics/` against a year a merchant lives in the sandbox (docs/metrics.md): subscriptions sold through
 * checkouts over 2028 (monthly, yearly, a trial, one with a 10 % discount), an upgrade, a cancellation with a
 * reason, a revoked subscription, a partial refund, one-time orders in dollars and euros and a checkout never
 * paid; then the clock moved to 2029 so every renewal happened. Each metric of each period is then compared with
 * the same definition computed here, independently, from the orders, subscriptions and checkouts the API lists.
 */
jest.setTimeout(300_000);
const START = new Date('2028-01-03T10:00:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;
let owner: Tenant;
let other: Tenant;

const api = (method: string, path: string, body?: unknown, token = owner.oat) =>
  call(base, method, path, { token, body });

async function product(body: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/v1/products/', { name: 'Plan', ...body });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function buy(body: Record<string, unknown>): Promise<string> {
  const checkout = await api('POST', '/v1/checkouts/', { customer_email: `${Math.random()}@example.com`, ...body });
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  return checkout.body.id;
}

const subscriptionOf = async (checkoutId: string): Promise<string> =>
  (await listAll('/v1/subscriptions/')).find(s => s.checkout_id === checkoutId)!.id;

const advance = async (to: string) => expect((await api('POST', '/v1/sandbox/clock/advance', { to })).status).toBe(200);

const listAll = (path: string, token = owner.oat) => everyPage(base, path, token);

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);

  const basic = await product({ recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 1000 }] });
  const pro = await product({ recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 3000 }] });
  const yearly = await product({ recurring_interval: 'year', prices: [{ amount_type: 'fixed', price_amount: 10000 }] });
  const trial = await product({
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 2000 }],
    trial_interval: 'day',
    trial_interval_count: 14,
  });
  const ebook = await product({ prices: [{ amount_type: 'fixed', price_amount: 5000 }] });
  const euroBook = await product({ prices: [{ amount_type: 'fixed', price_currency: 'eur', price_amount: 4000 }] });
  const tenOff = await api('POST', '/v1/discounts/', {
    name: 'Ten off',
    type: 'percentage',
    basis_points: 1000,
    duration: 'forever',
  });
  expect(tenOff.status).toBe(201);

  // 3 January: monthly, yearly, a 14-day trial, a one-time order; a checkout left unpaid.
  const a = await subscriptionOf(await buy({ products: [basic] }));
  await buy({ products: [yearly] });
  await buy({ products: [trial] });
  const ebookCheckout = await buy({ products: [ebook] });
  expect((await api('POST', '/v1/checkouts/', { products: [basic] })).status).toBe(201);

  // 10 February: a monthly subscription with 10 % off forever.
  await advance('2028-02-10T12:00:00.000Z');
  const e = await subscriptionOf(await buy({ products: [basic], discount_id: tenOff.body.id }));

  // 15 March: A upgrades to Pro, invoiced now.
  await advance('2028-03-15T12:00:00.000Z');
  const upgraded = await api('PATCH', `/v1/subscriptions/${a}`, { product_id: pro, proration_behavior: 'invoice' });
  expect(upgraded.status).toBe(200);

  // 20 April: E cancels at the end of its period (too expensive); the one-time order is refunded in part.
  await advance('2028-04-20T12:00:00.000Z');
  const canceled = await api('PATCH', `/v1/subscriptions/${e}`, {
    cancel_at_period_end: true,
    customer_cancellation_reason: 'too_expensive',
  });
  expect(canceled.status).toBe(200);
  const ebookOrder = (await listAll('/v1/orders/')).find(o => o.checkout_id === ebookCheckout)!;
  const refund = await api('POST', '/v1/refunds/', {
    order_id: ebookOrder.id,
    reason: 'customer_request',
    amount: 2000,
  });
  expect(refund.status).toBe(201);

  // 5 May: a one-time order in euros. 1 June: a subscription revoked on 1 August.
  await advance('2028-05-05T12:00:00.000Z');
  await buy({ products: [euroBook] });
  await advance('2028-06-01T12:00:00.000Z');
  const g = await subscriptionOf(await buy({ products: [basic] }));
  await advance('2028-08-01T12:00:00.000Z');
  expect((await api('DELETE', `/v1/subscriptions/${g}`)).status).toBe(200);

  // The rest of the year: every renewal.
  await advance('2029-01-05T12:00:00.000Z');
}, 300_000);

async function listed() {
  return {
    orders: await listAll('/v1/orders/'),
    subscriptions: await listAll('/v1/subscriptions/'),
    checkouts: await listAll('/v1/checkouts/'),
  };
}

const metrics = (query: string, token = owner.oat) => api('GET', `/v1/metrics/?${query}`, undefined, token);

describe('a year of 2028, day by day in UTC', () => {
  it('answers every period and total as the independent computation from the listed orders, subscriptions and checkouts', async () => {
    const data = await listed();
    // The scenario is what it says: an upgrade's invoice, a refund, euros, a trial, a revocation, an unpaid checkout.
    expect(data.orders.some(o => o.billing_reason === 'subscription_update')).toBe(true);
    expect(data.orders.some(o => o.status === 'partially_refunded')).toBe(true);
    expect(data.orders.some(o => o.currency === 'eur')).toBe(true);
    expect(data.subscriptions.some(s => s.trial_end)).toBe(true);
    expect(data.subscriptions.some(s => s.ended_at)).toBe(true);
    expect(data.checkouts.some(c => c.status !== 'succeeded')).toBe(true);

    const res = await metrics('start_date=2028-01-01&end_date=2028-12-31&interval=day');
    expect(res.status).toBe(200);
    const periods = res.body.periods as Row[];
    expect(periods).toHaveLength(366);
    expect(periods[0].timestamp).toBe('2028-01-01T00:00:00Z');
    expect(periods[365].timestamp).toBe('2028-12-31T00:00:00Z');
    const keys = periods.map(p => p.timestamp.slice(0, 10));
    const want = expected(data, keys, bucketing('UTC', 'day'));
    for (const [slug, values] of Object.entries(want))
      expect([slug, periods.map(p => p[slug])]).toEqual([slug, values]);
    expect(periods.map(p => p.churn_rate)).toEqual(keys.map(day => churnRate(data.subscriptions, day)));
    const ltv = periods.map(p =>
      p.churn_rate ? Math.max(0, Math.trunc(p.average_revenue_per_user / p.churn_rate)) : 0,
    );
    expect(periods.map(p => p.ltv)).toEqual(ltv);

    // The numbers are not trivially zero: money moved, subscriptions came and went.
    expect(res.body.totals.revenue).toBeGreaterThan(50_000);
    expect(Math.max(...want.active_subscriptions)).toBe(4);
    expect(want.trial_monthly_recurring_revenue.some(v => v > 0)).toBe(true);

    const sum = (slug: string) => want[slug].reduce((a, b) => a + b, 0);
    const lastOf = (slug: string) => want[slug][365];
    expect(res.body.totals).toMatchObject({
      orders: sum('orders'),
      revenue: sum('revenue'),
      net_revenue: sum('net_revenue'),
      cumulative_revenue: lastOf('cumulative_revenue'),
      monthly_recurring_revenue: lastOf('monthly_recurring_revenue'),
      active_subscriptions: lastOf('active_subscriptions'),
      canceled_subscriptions: 2, // E's, and G's revocation
      canceled_subscriptions_too_expensive: 1,
      checkouts: sum('checkouts'),
      average_order_value: sum('revenue') / sum('orders'),
      checkouts_conversion: sum('succeeded_checkouts') / sum('checkouts'),
    });
    expect(res.body.metrics.monthly_recurring_revenue).toEqual({
      slug: 'monthly_recurring_revenue',
      display_name: 'Monthly Recurring Revenue',
      type: 'currency',
    });
  });

  it('groups by month and by the wall clock of another time zone the same way', async () => {
    const data = await listed();
    const monthly = await metrics('start_date=2028-01-01&end_date=2028-12-31&interval=month');
    expect(monthly.status).toBe(200);
    const months = monthly.body.periods as Row[];
    expect(months.map(p => p.timestamp)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2028-${String(i + 1).padStart(2, '0')}-01T00:00:00Z`),
    );
    const byMonth = expected(
      data,
      months.map(p => p.timestamp.slice(0, 7)),
      bucketing('UTC', 'month'),
    );
    for (const slug of [
      'orders',
      'revenue',
      'net_revenue',
      'monthly_recurring_revenue',
      'active_subscriptions',
      'checkouts',
    ])
      expect([slug, months.map(p => p[slug])]).toEqual([slug, byMonth[slug]]);

    const tz = 'Pacific/Auckland';
    const local = await metrics(`start_date=2028-01-01&end_date=2028-12-31&interval=day&timezone=${tz}`);
    expect(local.status).toBe(200);
    const days = local.body.periods as Row[];
    expect(days[0].timestamp).toBe('2028-01-01T00:00:00+13:00');
    expect(days[200].timestamp).toBe('2028-07-19T00:00:00+12:00');
    const byLocalDay = expected(
      data,
      days.map(p => p.timestamp.slice(0, 10)),
      bucketing(tz, 'day'),
    );
    for (const slug of ['orders', 'revenue', 'one_time_products', 'active_subscriptions', 'monthly_recurring_revenue'])
      expect([slug, days.map(p => p[slug])]).toEqual([slug, byLocalDay[slug]]);
  });

  it('narrows to a product, a billing type and a customer', async () => {
    const data = await listed();
    const euro = data.orders.find(o => o.currency === 'eur')!;
    const oneTime = await metrics('start_date=2028-01-01&end_date=2028-12-31&interval=month&billing_type=one_time');
    expect(oneTime.body.totals.orders).toBe(2);
    expect(oneTime.body.totals.active_subscriptions).toBe(0);
    const byProduct = await metrics(
      `start_date=2028-01-01&end_date=2028-12-31&interval=month&product_id=${euro.product_id}`,
    );
    expect([byProduct.body.totals.orders, byProduct.body.totals.revenue]).toEqual([1, euro.net_amount]);
    const byCustomer = await metrics(
      `start_date=2028-01-01&end_date=2028-12-31&interval=month&customer_id=${euro.customer_id}`,
    );
    expect(byCustomer.body.totals.orders).toBe(1);
  });
});

describe('what a request may ask', () => {
  it('answers only the metrics named, and leaves out those it cannot compute (costs) rather than answer 0', async () => {
    const res = await metrics(
      'start_date=2028-03-01&end_date=2028-03-03&interval=day&metrics=revenue&metrics=costs&metrics=ltv',
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.metrics)).toEqual(['revenue', 'ltv']);
    expect(Object.keys(res.body.totals)).toEqual(['revenue', 'ltv']);
    expect(Object.keys(res.body.periods[0])).toEqual(['timestamp', 'revenue', 'ltv']);
    const all = await metrics('start_date=2028-03-01&end_date=2028-03-03&interval=day');
    expect(all.body.metrics.costs).toBeUndefined();
    expect(all.body.periods[0]).not.toHaveProperty('gross_margin');
  });

  it('gives a subset of metrics the same numbers as all of them, though its statements leave parts out', async () => {
    // Each subset leaves out a different costly part (docs/metrics.md#cost): ARPU's customer spans, the orders
    // before the window, the churn rate's timeline; or keeps one of them and drops the others.
    const subsets = [
      ['revenue', 'monthly_recurring_revenue', 'active_subscriptions', 'new_subscriptions', 'churned_subscriptions'],
      ['cumulative_revenue', 'committed_subscriptions'],
      ['net_cumulative_revenue', 'average_revenue_per_user', 'canceled_subscriptions_too_expensive'],
      ['ltv', 'orders'],
      ['churn_rate', 'trial_monthly_recurring_revenue', 'checkouts_conversion'],
    ];
    for (const query of [
      'start_date=2028-01-01&end_date=2028-12-31&interval=day',
      'start_date=2028-03-01&end_date=2028-09-30&interval=week&timezone=Pacific/Auckland',
    ]) {
      const all = await metrics(query);
      expect(all.status).toBe(200);
      for (const subset of subsets) {
        const res = await metrics(`${query}&${subset.map(slug => `metrics=${slug}`).join('&')}`);
        expect(res.status).toBe(200);
        const pick = (values: Record<string, unknown>) =>
          Object.fromEntries(Object.keys(res.body.totals).map(slug => [slug, values[slug]]));
        expect(Object.keys(res.body.totals).sort()).toEqual([...subset].sort());
        expect([subset, res.body.totals]).toEqual([subset, pick(all.body.totals)]);
        expect([subset, res.body.periods]).toEqual([
          subset,
          all.body.periods.map((p: Row) => ({ timestamp: p.timestamp, ...pick(p) })),
        ]);
      }
    }
    // Not trivially equal: the subsets' numbers moved over the year.
    const all = await metrics('start_date=2028-01-01&end_date=2028-12-31&interval=day');
    for (const slug of ['cumulative_revenue', 'average_revenue_per_user', 'churn_rate'])
      expect([slug, all.body.periods.some((p: Row) => p[slug] > 0)]).toEqual([slug, true]);
  });

  it('is 422 for an unknown slug, an unknown time zone and a range over the interval’s limit', async () => {
    const slug = await metrics('start_date=2028-03-01&end_date=2028-03-03&interval=day&metrics=revenue&metrics=bogus');
    expect([slug.status, slug.body.detail[0]]).toEqual([
      422,
      expect.objectContaining({ loc: ['query', 'metrics'], msg: 'Invalid metric slugs: bogus' }),
    ]);
    const zone = await metrics('start_date=2028-03-01&end_date=2028-03-03&interval=day&timezone=Mars/Olympus');
    expect([zone.status, zone.body.detail[0].loc]).toEqual([422, ['query', 'timezone']]);
    const range = await metrics('start_date=2028-01-01&end_date=2029-01-02&interval=day');
    expect([range.status, range.body.detail[0].loc, range.body.detail[0].msg]).toEqual([
      422,
      ['query'],
      'The interval is too small for the given date range. Use a larger interval or reduce the date range.',
    ]);
    const hours = await metrics('start_date=2028-03-01&end_date=2028-03-08&interval=hour');
    expect(hours.status).toBe(200);
    expect(hours.body.periods).toHaveLength(8 * 24);
  });

  it('answers Polar’s limits table', async () => {
    const res = await api('GET', '/v1/metrics/limits');
    expect([res.status, res.body]).toEqual([
      200,
      {
        min_date: '2023-01-01',
        intervals: {
          hour: { min_days: 0, max_days: 7 },
          day: { min_days: 0, max_days: 366 },
          week: { min_days: 14, max_days: 371 },
          month: { min_days: 60, max_days: 1460 },
          year: { min_days: 366, max_days: 3650 },
        },
      },
    ]);
  });

  it('exports the same numbers as CSV, one column per metric under its display name', async () => {
    const query = 'start_date=2028-04-19&end_date=2028-04-21&interval=day&metrics=orders&metrics=checkouts_conversion';
    const json = await metrics(query);
    const res = await call(base, 'GET', `/v1/metrics/export?${query}`, { token: owner.oat });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="polar-metrics.csv"');
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('Timestamp,Orders,Checkouts Conversion Rate');
    expect(lines.slice(1, 4)).toEqual(
      json.body.periods.map(
        (p: Row) =>
          `${p.timestamp.replace('Z', '+00:00')},${p.orders},${Number.isInteger(p.checkouts_conversion) ? `${p.checkouts_conversion}.0` : p.checkouts_conversion}`,
      ),
    );
  });
});

describe("another organization's numbers", () => {
  it('never show: its token sees its own (zeros), naming the other organization narrows to nothing', async () => {
    const theirs = await metrics('start_date=2028-01-01&end_date=2028-12-31&interval=month', other.oat);
    expect(theirs.status).toBe(200);
    expect(theirs.body.totals).toMatchObject({ orders: 0, revenue: 0, active_subscriptions: 0, checkouts: 0 });
    const named = await metrics(
      `start_date=2028-01-01&end_date=2028-12-31&interval=month&organization_id=${owner.organizationId}`,
      other.oat,
    );
    expect(named.body.totals).toMatchObject({ orders: 0, revenue: 0, monthly_recurring_revenue: 0 });
    const foreignUser = await metrics(
      `start_date=2028-01-01&end_date=2028-12-31&interval=month&organization_id=${owner.organizationId}`,
      other.pat,
    );
    expect(foreignUser.body.totals).toMatchObject({ orders: 0, revenue: 0 });
    const ownUser = await metrics(
      `start_date=2028-01-01&end_date=2028-12-31&interval=month&organization_id=${owner.organizationId}`,
      owner.pat,
    );
    expect(ownUser.body.totals.orders).toBeGreaterThan(0);
  });
});

describe('seats', () => {
  it('count a seat-based subscription’s seats, pending until claimed, and its billing customer as new', async () => {
    await api('PATCH', `/v1/organizations/${owner.organizationId}`, {
      feature_settings: { seat_based_pricing_enabled: true },
    });
    const team = await product({
      name: 'Team',
      recurring_interval: 'month',
      prices: [
        {
          amount_type: 'seat_based',
          price_currency: 'usd',
          seat_tiers: { seat_tier_type: 'volume', tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 1000 }] },
        },
      ],
    });
    const sub = await subscriptionOf(await buy({ products: [team], seats: 3 }));
    for (const email of ['one@example.com', 'two@example.com'])
      expect((await api('POST', '/v1/customer-seats', { subscription_id: sub, email })).status).toBe(200);
    const seats = (await api('GET', `/v1/customer-seats?subscription_id=${sub}`)).body.seats as Row[];
    const res = await metrics('start_date=2029-01-04&end_date=2029-01-05&interval=day');
    const [before, today] = res.body.periods as Row[];
    expect(before).toMatchObject({ seats_total: 0, seat_customers: 0, new_seat_customers: 0 });
    expect(today).toMatchObject({
      seats_total: seats.length,
      seats_claimed: seats.filter(s => s.claimed_at).length,
      seats_pending: seats.filter(s => !s.claimed_at).length,
      seat_customers: 1,
      new_seat_customers: 1,
      churned_seat_customers: 0,
      average_seats_per_customer: seats.length,
      seat_utilization_rate: 0,
    });
    expect(seats.length).toBe(2);
  });
});
