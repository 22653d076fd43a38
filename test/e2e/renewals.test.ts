import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The recurring engine as a merchant lives it in the sandbox: a subscription sold through a checkout,
 * then the organization's clock moved forward (`POST /v1/sandbox/clock/advance`), and what the API
 * shows afterwards: periods, `subscription_cycle` orders, payments (failed ones too), statuses and the
 * events in the outbox, each stamped with the instant it was due. A checkout's sale is stamped 2 ms after
 * its confirm (checkout.fulfilment.ts), so every period here starts at 09:30:00.002.
 */
jest.setTimeout(120_000);
const START = new Date('2028-01-31T09:30:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
}, 120_000);

/** A tenant of its own per scenario: its clock starts at the wall clock. */
async function merchant() {
  const owner: Tenant = await createTenant(stack.sandbox);
  const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
  const product = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/v1/products/', { recurring_interval: 'month', name: 'Plan', ...body });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const subscribe = async (body: Record<string, unknown>, card = 'pm_card_visa') => {
    const checkout = await api('POST', '/v1/checkouts/', { customer_email: 'buyer@example.com', ...body });
    expect(checkout.status).toBe(201);
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: card },
    });
    expect(confirmed.status).toBe(200);
    const subs = await api('GET', `/v1/subscriptions/?customer_id=${checkout.body.customer_id ?? ''}`);
    const list = await api('GET', '/v1/subscriptions/?limit=100');
    const sub = list.body.items.find((s: any) => s.checkout_id === checkout.body.id) ?? subs.body.items[0];
    return sub as Record<string, any>;
  };
  const advance = async (to: string) => {
    const res = await api('POST', '/v1/sandbox/clock/advance', { to });
    expect([res.status, res.body]).toEqual([200, { organization_id: owner.organizationId, now: to }]);
  };
  const subscription = async (id: string) => (await api('GET', `/v1/subscriptions/${id}`)).body;
  const orders = async (id: string) => {
    const res = await api('GET', `/v1/orders/?subscription_id=${id}&limit=100&sorting=created_at`);
    expect(res.status).toBe(200);
    return res.body.items as Record<string, any>[];
  };
  const payments = async (orderId: string) => {
    const res = await api('GET', `/v1/payments/?order_id=${orderId}&limit=100&sorting=created_at`);
    expect(res.status).toBe(200);
    return res.body.items as Record<string, any>[];
  };
  const events = async (id: string) => {
    const rows = await stack.sandbox.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute<{ type: string; created_at: Date }[]>(
        `select type, created_at from billing.events where organization_id = ? and (payload->>'id' = ? or payload->>'subscription_id' = ?) order by created_at, id`,
        [owner.organizationId, id, id],
      );
    return rows.map(r => [r.type, new Date(r.created_at).toISOString()]);
  };
  return { owner, api, product, subscribe, advance, subscription, orders, payments, events };
}

describe('a year of monthly renewals from 31 January 2028 (a leap year)', () => {
  it('renews on the last day of shorter months and returns to the 31st, one paid order per period', async () => {
    const m = await merchant();
    const plan = await m.product({ prices: [{ amount_type: 'fixed', price_amount: 1000 }] });
    const sub = await m.subscribe({ products: [plan] });
    expect(sub).toMatchObject({ status: 'active', current_period_end: '2028-02-29T09:30:00.002Z' });
    await m.advance('2029-01-31T09:30:00.002Z');

    const after = await m.subscription(sub.id);
    expect(after).toMatchObject({
      status: 'active',
      current_period_start: '2029-01-31T09:30:00.002Z',
      current_period_end: '2029-02-28T09:30:00.002Z',
    });
    const list = await m.orders(sub.id);
    // The first order is the checkout's; then one `subscription_cycle` order per renewal, each stamped at its period's start.
    expect(list.map(o => [o.billing_reason, o.created_at.slice(0, 10), o.status, o.total_amount])).toEqual([
      ['subscription_create', '2028-01-31', 'paid', 1000],
      ...[
        '2028-02-29',
        '2028-03-31',
        '2028-04-30',
        '2028-05-31',
        '2028-06-30',
        '2028-07-31',
        '2028-08-31',
        '2028-09-30',
        '2028-10-31',
        '2028-11-30',
        '2028-12-31',
        '2029-01-31',
      ].map(day => ['subscription_cycle', day, 'paid', 1000]),
    ]);
    const cycle = list[1];
    const paid = await m.payments(cycle.id);
    expect(paid).toMatchObject([{ status: 'succeeded', amount: 1000, order_id: cycle.id }]);
    const kinds = (await m.events(sub.id)).filter(([t]) => t.startsWith('subscription.')).map(([t]) => t);
    expect(kinds.filter(t => t === 'subscription.cycled')).toHaveLength(12);
    const firstCycle = (await m.events(sub.id)).find(([t]) => t === 'subscription.cycled');
    expect(firstCycle![1]).toBe('2028-02-29T09:30:00.003Z');

    // Invoice numbers: the organization's, one after the other, and each order event tells its order's.
    const numbers = list.map(o => o.invoice_number as string);
    const prefix = numbers[0].replace(/-\d+$/, '');
    expect(numbers).toEqual(numbers.map((_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`));
    const told = await stack.sandbox.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute<{ id: string; invoice_number: string }[]>(
        `select distinct payload->>'id' as id, payload->>'invoice_number' as invoice_number from billing.events
          where organization_id = ? and type like 'order.%'`,
        [m.owner.organizationId],
      );
    expect(Object.fromEntries(told.map(e => [e.id, e.invoice_number]))).toEqual(
      Object.fromEntries(list.map(o => [o.id, o.invoice_number])),
    );
  });
});

describe('trials', () => {
  it('a trial converts at its end: the first charge, `active`, and monthly from the trial end', async () => {
    const m = await merchant();
    const plan = await m.product({
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
      trial_interval: 'day',
      trial_interval_count: 14,
    });
    const sub = await m.subscribe({ products: [plan] });
    expect(sub).toMatchObject({ status: 'trialing', trial_end: '2028-02-14T09:30:00.002Z' });
    await m.advance('2028-02-14T09:30:00.002Z');
    expect(await m.subscription(sub.id)).toMatchObject({
      status: 'active',
      current_period_start: '2028-02-14T09:30:00.002Z',
      current_period_end: '2028-03-14T09:30:00.002Z',
    });
    const list = await m.orders(sub.id);
    expect(list.map(o => [o.billing_reason, o.status, o.total_amount])).toEqual([
      ['subscription_create', 'paid', 0],
      ['subscription_cycle', 'paid', 2500],
    ]);
    const types = (await m.events(sub.id)).map(([t]) => t);
    expect(types).toEqual(
      expect.arrayContaining(['subscription.cycled', 'subscription.active', 'order.created', 'order.paid']),
    );
  });

  it('a trial whose saved card fails every charge goes through each dunning retry to revocation', async () => {
    const m = await merchant();
    const plan = await m.product({
      prices: [{ amount_type: 'fixed', price_amount: 2500 }],
      trial_interval: 'day',
      trial_interval_count: 7,
    });
    const sub = await m.subscribe({ products: [plan] }, 'pm_card_chargeCustomerFail');
    expect(sub.status).toBe('trialing');
    const trialEnd = '2028-02-07T09:30:00.002Z';
    await m.advance(trialEnd);
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'past_due', past_due_at: trialEnd });
    const [order] = (await m.orders(sub.id)).filter(o => o.billing_reason === 'subscription_cycle');
    expect(order).toMatchObject({ status: 'pending', next_payment_attempt_at: '2028-02-09T09:30:00.002Z' });

    // Retries after 2, 5, 7 and 7 days, each a failed payment of the order; after the 4th it is revoked.
    await m.advance('2028-03-01T00:00:00.000Z');
    const attempts = await m.payments(order.id);
    expect(attempts.map(p => [p.status, p.created_at])).toEqual([
      ['failed', '2028-02-07T09:30:00.006Z'],
      ['failed', '2028-02-09T09:30:00.002Z'],
      ['failed', '2028-02-14T09:30:00.002Z'],
      ['failed', '2028-02-21T09:30:00.002Z'],
      ['failed', '2028-02-28T09:30:00.002Z'],
    ]);
    expect(await m.subscription(sub.id)).toMatchObject({
      status: 'canceled',
      ended_at: '2028-02-28T09:30:00.002Z',
    });
    const [after] = (await m.orders(sub.id)).filter(o => o.billing_reason === 'subscription_cycle');
    expect(after).toMatchObject({ status: 'void', next_payment_attempt_at: null });
    const types = (await m.events(sub.id)).map(([t]) => t);
    expect(types).toEqual(
      expect.arrayContaining(['subscription.past_due', 'subscription.canceled', 'subscription.revoked']),
    );
  });
});

describe('the end of a period', () => {
  it('cancel at period end: `canceled` with `ended_at` at the period end, and no order', async () => {
    const m = await merchant();
    const plan = await m.product({ prices: [{ amount_type: 'fixed', price_amount: 900 }] });
    const sub = await m.subscribe({ products: [plan] });
    const canceled = await m.api('PATCH', `/v1/subscriptions/${sub.id}`, { cancel_at_period_end: true });
    expect(canceled.status).toBe(200);
    await m.advance('2028-03-15T00:00:00.000Z');
    expect(await m.subscription(sub.id)).toMatchObject({
      status: 'canceled',
      ended_at: '2028-02-29T09:30:00.002Z',
      cancel_at_period_end: false,
    });
    expect((await m.orders(sub.id)).map(o => o.billing_reason)).toEqual(['subscription_create']);
    const types = (await m.events(sub.id)).map(([t]) => t);
    expect(types.slice(-2)).toEqual(['subscription.updated', 'subscription.revoked']);
  });
});

describe('pause and resume (Polar 2026)', () => {
  it('pauses at the period end with no order, and resumes at `resumes_at` into a new period billed at once', async () => {
    const m = await merchant();
    const plan = await m.product({ prices: [{ amount_type: 'fixed', price_amount: 1500 }] });
    const sub = await m.subscribe({ products: [plan] });
    // Polar's SubscriptionPause: still active until the period ends, then paused until `resumes_at`.
    const scheduled = await m.api('PATCH', `/v1/subscriptions/${sub.id}`, {
      pause_at_period_end: true,
      resumes_at: '2028-04-15T08:00:00.000Z',
    });
    expect([scheduled.status, scheduled.body]).toMatchObject([
      200,
      { status: 'active', pause_at_period_end: true, paused_at: null, resumes_at: '2028-04-15T08:00:00.000Z' },
    ]);
    await m.advance('2028-03-20T00:00:00.000Z');
    expect(await m.subscription(sub.id)).toMatchObject({
      status: 'paused',
      paused_at: '2028-02-29T09:30:00.002Z',
      pause_at_period_end: false,
      resumes_at: '2028-04-15T08:00:00.000Z',
    });
    expect((await m.orders(sub.id)).map(o => o.billing_reason)).toEqual(['subscription_create']);

    await m.advance('2028-05-01T00:00:00.000Z');
    expect(await m.subscription(sub.id)).toMatchObject({
      status: 'active',
      paused_at: null,
      resumes_at: null,
      current_period_start: '2028-04-15T08:00:00.000Z',
      current_period_end: '2028-05-15T08:00:00.000Z',
    });
    const list = await m.orders(sub.id);
    expect(list.map(o => [o.billing_reason, o.created_at, o.status])).toEqual([
      ['subscription_create', '2028-01-31T09:30:00.004Z', 'paid'],
      ['subscription_cycle', '2028-04-15T08:00:00.002Z', 'paid'],
    ]);
    const types = (await m.events(sub.id)).map(([t]) => t);
    expect(types).toEqual(expect.arrayContaining(['subscription.paused', 'subscription.resumed']));
  });
});

describe('currencies and discounts', () => {
  it('bills a yen price in yen, never scaled by 100', async () => {
    const m = await merchant();
    const plan = await m.product({ prices: [{ amount_type: 'fixed', price_amount: 1200, price_currency: 'jpy' }] });
    const sub = await m.subscribe({ products: [plan] });
    await m.advance('2028-03-01T00:00:00.000Z');
    const [cycle] = (await m.orders(sub.id)).filter(o => o.billing_reason === 'subscription_cycle');
    expect(cycle).toMatchObject({ currency: 'jpy', subtotal_amount: 1200, total_amount: 1200, status: 'paid' });
    expect(await m.payments(cycle.id)).toMatchObject([{ amount: 1200, currency: 'jpy', status: 'succeeded' }]);
  });

  it('a discount repeating for 3 months applies to the first 3 periods, then is cleared', async () => {
    const m = await merchant();
    const plan = await m.product({ prices: [{ amount_type: 'fixed', price_amount: 2000 }] });
    const discount = await m.api('POST', '/v1/discounts/', {
      name: 'Quarter off',
      type: 'percentage',
      basis_points: 2500,
      duration: 'repeating',
      duration_in_months: 3,
    });
    expect(discount.status).toBe(201);
    const sub = await m.subscribe({ products: [plan], discount_id: discount.body.id });
    await m.advance('2028-06-01T00:00:00.000Z');
    const list = await m.orders(sub.id);
    expect(list.map(o => [o.created_at.slice(0, 10), o.discount_amount, o.total_amount, o.discount_id])).toEqual([
      ['2028-01-31', 500, 1500, discount.body.id],
      ['2028-02-29', 500, 1500, discount.body.id],
      ['2028-03-31', 500, 1500, discount.body.id],
      ['2028-04-30', 0, 2000, null],
      ['2028-05-31', 0, 2000, null],
    ]);
    expect((await m.subscription(sub.id)).discount_id).toBeNull();
  });
});

describe('discounts of every duration', () => {
  it.each([
    ['once', {}, [500, 0, 0], null],
    ['forever', {}, [500, 500, 500], 'kept'],
  ])('a %s discount: what each of three periods takes off', async (duration, extra, offs, kept) => {
    const m = await merchant();
    const plan = await m.product({ prices: [{ amount_type: 'fixed', price_amount: 2000 }] });
    const discount = await m.api('POST', '/v1/discounts/', {
      name: `Quarter off ${duration}`,
      type: 'percentage',
      basis_points: 2500,
      duration,
      ...extra,
    });
    expect(discount.status).toBe(201);
    const sub = await m.subscribe({ products: [plan], discount_id: discount.body.id });
    await m.advance('2028-04-01T00:00:00.000Z');
    expect((await m.orders(sub.id)).map(o => o.discount_amount)).toEqual(offs);
    expect((await m.subscription(sub.id)).discount_id).toBe(kept ? discount.body.id : null);
  });
});

describe('paying a past-due renewal from the portal (confirm-retry-payment)', () => {
  it('a declined renewal is paid by hand with a new card: the order paid, the subscription active again', async () => {
    const m = await merchant();
    const plan = await m.product({
      prices: [{ amount_type: 'fixed', price_amount: 3000 }],
      trial_interval: 'day',
      trial_interval_count: 3,
    });
    const sub = await m.subscribe({ products: [plan] }, 'pm_card_chargeCustomerFail');
    await m.advance('2028-02-03T12:00:00.000Z');
    expect((await m.subscription(sub.id)).status).toBe('past_due');
    const [order] = (await m.orders(sub.id)).filter(o => o.billing_reason === 'subscription_cycle');
    const session = await m.api('POST', '/v1/customer-sessions/', { customer_id: sub.customer_id });
    expect(session.status).toBe(201);
    const confirm = (body: unknown) =>
      call(base, 'POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, {
        token: session.body.token,
        body,
      });

    const declined = await confirm({});
    expect([declined.status, declined.body.status]).toEqual([200, 'failed']);
    // A minute later (the test's wall clock stands still; the organization's clock is moved).
    await m.advance('2028-02-03T12:01:00.000Z');
    const paid = await confirm({ confirmation_token_id: 'pm_card_visa' });
    expect([paid.status, paid.body]).toEqual([200, { status: 'succeeded', client_secret: null, error: null }]);

    expect(await m.subscription(sub.id)).toMatchObject({ status: 'active', past_due_at: null });
    const [after] = (await m.orders(sub.id)).filter(o => o.billing_reason === 'subscription_cycle');
    expect(after).toMatchObject({ status: 'paid', next_payment_attempt_at: null });
    // Every try is a payment of the order: the renewal's charge, the declined and the paid manual tries.
    expect((await m.payments(order.id)).map(p => p.status)).toEqual(['failed', 'failed', 'succeeded']);
    const again = await confirm({ confirmation_token_id: 'pm_card_visa' });
    expect([again.status, again.body.error]).toEqual([422, 'OrderNotEligibleForRetry']);
  });

  it('allows at most 5 manual tries per order (429 ManualRetryLimitExceeded), and 404 for another customer', async () => {
    const m = await merchant();
    const plan = await m.product({
      prices: [{ amount_type: 'fixed', price_amount: 3000 }],
      trial_interval: 'day',
      trial_interval_count: 3,
    });
    const sub = await m.subscribe({ products: [plan] }, 'pm_card_chargeCustomerFail');
    await m.advance('2028-02-03T12:00:00.000Z');
    const [order] = (await m.orders(sub.id)).filter(o => o.billing_reason === 'subscription_cycle');
    const session = await m.api('POST', '/v1/customer-sessions/', { customer_id: sub.customer_id });
    const confirm = () =>
      call(base, 'POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, {
        token: session.body.token,
        body: {},
      });
    for (let i = 0; i < 5; i++) expect((await confirm()).body.status).toBe('failed');
    const sixth = await confirm();
    expect([sixth.status, sixth.body.error]).toEqual([429, 'ManualRetryLimitExceeded']);
    expect(await m.payments(order.id)).toHaveLength(6);

    const other = await m.api('POST', '/v1/customers/', { email: 'other@example.com' });
    const otherSession = await m.api('POST', '/v1/customer-sessions/', { customer_id: other.body.id });
    const foreign = await call(base, 'POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, {
      token: otherSession.body.token,
      body: {},
    });
    expect(foreign.status).toBe(404);
  });
});
