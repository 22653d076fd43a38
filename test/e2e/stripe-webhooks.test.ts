import { ManualClock } from '../../kit/clock.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { call, type Tenant, type TestStack } from '../support/stack.js';
import { StripeStack } from '../support/stripe-stack.js';

/**
 * Stripe's webhooks through `POST /v1/integrations/stripe/webhook`, on a production environment that
 * charges through Stripe (a loopback server speaking Stripe's API, `STRIPE_API_URL`): the payments and
 * refunds Stripe answered as in flight settle when their signed event arrives, once, as the merchant
 * sees them in the API and the events. Time is a manual clock, so renewals run when the test moves it.
 */
jest.setTimeout(120_000);
const SECRET = 'whsec_e2e_secret';
const wall = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
const world = new StripeStack(SECRET, wall);
const stripe = world.stripe;
let stack: TestStack;
let owner: Tenant;
let base: string;

beforeAll(async () => {
  ({ stack, owner, base } = await world.start('stripe_webhooks'));
}, 120_000);
afterAll(() => world.close());

const { api, deliver, product } = world;

const sql = <T>(text: string, values: unknown[] = []) =>
  stack.production.environment.billing.orm.em.fork().getConnection().execute<T[]>(text, values);

const eventsOf = (type: string, id: string) =>
  sql<{ n: string }>(
    `select count(*)::text as n from billing.events where organization_id = ? and type = ? and payload->>'id' = ?`,
    [owner.organizationId, type, id],
  ).then(([row]) => Number(row.n));

/** A checkout confirmed with Stripe's `pm_card_visa`; its order. */
async function sell(productId: string, email: string): Promise<Record<string, any>> {
  const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: email });
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect([confirmed.status, confirmed.body.status]).toEqual([200, 'confirmed']);
  const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`);
  expect(orders.body.items).toEqual([expect.objectContaining({ status: 'paid' })]);
  return orders.body.items[0];
}

describe('refunds Stripe answers pending', () => {
  let order: Record<string, any>;
  beforeAll(async () => {
    order = await sell(await product({ prices: [{ amount_type: 'fixed', price_amount: 1000 }] }), 'r@example.com');
    stripe.refundStatus = 'pending';
  });
  afterAll(() => {
    stripe.refundStatus = 'succeeded';
  });

  it('count once their refund.updated says succeeded; the same event again changes nothing', async () => {
    const created = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'customer_request', amount: 400 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', amount: 400 });
    expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({ status: 'paid', refunded_amount: 0 });
    // The pending 400 is spoken for: 700 more would give back more than was paid.
    const tooMuch = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'customer_request', amount: 700 });
    expect(tooMuch.status).toBe(422);

    const atStripe = [...stripe.refunds.values()].at(-1)!;
    const event = FakeStripe.event('refund.updated', { ...atStripe, status: 'succeeded' }, wall.now());
    const answer = await deliver(event);
    expect([answer.status, answer.body]).toEqual([200, { received: true, result: 'handled' }]);

    expect((await api('GET', `/v1/refunds/?order_id=${order.id}`)).body.items).toEqual([
      expect.objectContaining({ id: created.body.id, status: 'succeeded', amount: 400 }),
    ]);
    expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 400,
    });
    expect(await eventsOf('refund.updated', created.body.id)).toBe(1);
    expect(await eventsOf('order.refunded', order.id)).toBe(1);

    const again = await deliver(event);
    expect([again.status, again.body]).toEqual([200, { received: true, result: 'duplicate' }]);
    expect((await api('GET', `/v1/orders/${order.id}`)).body.refunded_amount).toBe(400);
    expect(await eventsOf('refund.updated', created.body.id)).toBe(1);
    expect(await eventsOf('order.refunded', order.id)).toBe(1);
  });

  it('a refund that fails at Stripe is failed, the order unchanged and its amount refundable again', async () => {
    const created = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'duplicate', amount: 600 });
    expect(created.body).toMatchObject({ status: 'pending', amount: 600 });
    const atStripe = [...stripe.refunds.values()].at(-1)!;
    stripe.refunds.delete(atStripe.id); // gone back to the charge at Stripe too
    const failed = { ...atStripe, status: 'failed', failure_reason: 'expired_or_canceled_card' };
    expect((await deliver(FakeStripe.event('refund.failed', failed, wall.now()))).body.result).toBe('handled');

    const refunds = (await api('GET', `/v1/refunds/?order_id=${order.id}`)).body.items;
    expect(refunds.find((r: any) => r.id === created.body.id)).toMatchObject({ status: 'failed' });
    expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 400,
    });
    expect(await eventsOf('refund.updated', created.body.id)).toBe(1);
    stripe.refundStatus = 'succeeded';
    const rest = await api('POST', '/v1/refunds/', { order_id: order.id, reason: 'customer_request', amount: 600 });
    expect(rest.body).toMatchObject({ status: 'succeeded', amount: 600 });
    expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({
      status: 'refunded',
      refunded_amount: 1000,
    });
  });

  it('a refund that succeeded and fails later is taken off the order again', async () => {
    const [last] = (await api('GET', `/v1/refunds/?order_id=${order.id}&limit=100`)).body.items.filter(
      (r: any) => r.status === 'succeeded' && r.amount === 600,
    );
    const atStripe = [...stripe.refunds.values()].at(-1)!;
    const failed = { ...atStripe, status: 'failed', failure_reason: 'lost_or_stolen_card' };
    expect((await deliver(FakeStripe.event('refund.failed', failed, wall.now()))).body.result).toBe('handled');
    expect((await api('GET', `/v1/refunds/?order_id=${order.id}&limit=100`)).body.items).toContainEqual(
      expect.objectContaining({ id: last.id, status: 'failed' }),
    );
    expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 400,
    });
    expect(await eventsOf('refund.updated', last.id)).toBe(1);
  });
});

describe('a change asked for while a renewal charges', () => {
  it('is refused with 409 SubscriptionLocked until the renewal commits, and the renewal is not lost', async () => {
    const first = await sell(
      await product({ recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 1500 }] }),
      'mid-renewal@example.com',
    );
    const id = first.subscription_id as string;
    const before = (await api('GET', `/v1/subscriptions/${id}`)).body;
    // Only this subscription is due (the tests before it sell one-time products), so the held charge is its own.
    const { held, release } = stripe.holdCharges();
    wall.set(new Date(new Date(before.current_period_end).getTime() + 1000));
    const renewing = stack.production.environment.billing.renewals.tick();
    await held; // the renewal's transaction holds the subscription while Stripe has its charge
    try {
      const refused = await api('PATCH', `/v1/subscriptions/${id}`, { metadata: { plan: 'changed' } });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'SubscriptionLocked' });
    } finally {
      release();
    }
    expect(await renewing).toBeGreaterThan(0);
    const renewed = (await api('GET', `/v1/subscriptions/${id}`)).body;
    expect(renewed.current_period_start).toBe(before.current_period_end);
    expect(renewed.metadata).toEqual(before.metadata);
    // The retry after the renewal applies, on top of the renewed period.
    const applied = await api('PATCH', `/v1/subscriptions/${id}`, { metadata: { plan: 'changed' } });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({
      metadata: { plan: 'changed' },
      current_period_start: before.current_period_end,
    });
  });
});

describe('renewal charges Stripe answers processing', () => {
  /** A monthly subscription sold now, then its renewal with Stripe answering `processing`: the order. */
  async function renewalInFlight(email: string) {
    const first = await sell(
      await product({ recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 2500 }] }),
      email,
    );
    const subscriptionId = first.subscription_id as string;
    const sub = (await api('GET', `/v1/subscriptions/${subscriptionId}`)).body;
    stripe.chargeStatus = 'processing';
    try {
      wall.set(new Date(new Date(sub.current_period_end).getTime() + 1000));
      expect(await stack.production.environment.billing.renewals.tick()).toBeGreaterThan(0);
    } finally {
      stripe.chargeStatus = 'succeeded';
    }
    const orders = (await api('GET', `/v1/orders/?subscription_id=${subscriptionId}&sorting=-created_at`)).body.items;
    const renewal = orders.find((o: any) => o.billing_reason === 'subscription_cycle');
    expect(renewal).toMatchObject({ status: 'pending', total_amount: 2500 });
    const payments = (await api('GET', `/v1/payments/?order_id=${renewal.id}`)).body.items;
    expect(payments).toEqual([expect.objectContaining({ status: 'pending', amount: 2500 })]);
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).body.status).toBe('active');
    // (The tick renews every subscription due, an earlier test's too: this order's charge by its metadata.)
    const intent = [...stripe.paymentIntents.values()].find(pi => pi.metadata.order_id === renewal.id)!;
    expect(intent).toMatchObject({ status: 'processing', amount: 2500 });
    return { subscriptionId, orderId: renewal.id as string, intent };
  }

  it('payment_intent.succeeded pays the renewal order', async () => {
    const { subscriptionId, orderId, intent } = await renewalInFlight('paid-later@example.com');
    const succeeded = { ...intent, status: 'succeeded', amount_received: intent.amount };
    const answer = await deliver(FakeStripe.event('payment_intent.succeeded', succeeded, wall.now()));
    expect(answer.body).toEqual({ received: true, result: 'handled' });
    expect((await api('GET', `/v1/orders/${orderId}`)).body).toMatchObject({ status: 'paid', paid: true });
    expect((await api('GET', `/v1/payments/?order_id=${orderId}`)).body.items).toEqual([
      expect.objectContaining({ status: 'succeeded' }),
    ]);
    expect((await api('GET', `/v1/subscriptions/${subscriptionId}`)).body.status).toBe('active');
    expect(await eventsOf('order.paid', orderId)).toBe(1);
  });

  it('an event that arrives before its renewal commits waits for the commit, then applies', async () => {
    const { orderId, intent } = await renewalInFlight('in-flight@example.com');
    // The renewal's transaction, still open: it holds the subscription and writes the charge's id.
    let commit!: () => void;
    let written!: () => void;
    const wrote = new Promise<void>(resolve => (written = resolve));
    const renewal = stack.production.environment.billing.orm.em.fork().transactional(async tx => {
      await tx.execute('select id from billing.subscriptions where id = ? for update', [
        intent.metadata.subscription_id,
      ]);
      await tx.execute('update billing.payments set processor_id = ? where order_id = ?', ['pi_late', orderId]);
      written();
      await new Promise<void>(resolve => (commit = resolve));
    });
    await wrote;
    const succeeded = { ...intent, id: 'pi_late', status: 'succeeded', amount_received: intent.amount };
    let answered = false;
    const answer = deliver(FakeStripe.event('payment_intent.succeeded', succeeded, wall.now())).then(reply => {
      answered = true;
      return reply;
    });
    // Not a timing assertion: the answer cannot come while the renewal holds its subscription.
    await new Promise(resolve => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    commit();
    await renewal;
    expect((await answer).body).toEqual({ received: true, result: 'handled' });
    expect((await api('GET', `/v1/orders/${orderId}`)).body.status).toBe('paid');
  });

  it('payment_intent.payment_failed puts the subscription past due and schedules the first retry', async () => {
    const { subscriptionId, orderId, intent } = await renewalInFlight('declined-later@example.com');
    const failure = {
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    };
    const failed = { ...intent, status: 'requires_payment_method', last_payment_error: failure };
    const failedAt = wall.now();
    expect((await deliver(FakeStripe.event('payment_intent.payment_failed', failed, failedAt))).body.result).toBe(
      'handled',
    );
    const sub = (await api('GET', `/v1/subscriptions/${subscriptionId}`)).body;
    expect(sub).toMatchObject({ status: 'past_due', past_due_at: failedAt.toISOString() });
    const order = (await api('GET', `/v1/orders/${orderId}`)).body;
    expect(order).toMatchObject({ status: 'pending', paid: false });
    // Polar's schedule: the first retry 2 days after the failure.
    expect(order.next_payment_attempt_at).toBe(new Date(failedAt.getTime() + 2 * 86_400_000).toISOString());
    expect((await api('GET', `/v1/payments/?order_id=${orderId}`)).body.items).toEqual([
      expect.objectContaining({ status: 'failed', decline_reason: 'insufficient_funds' }),
    ]);
  });
});

describe('what the endpoint refuses or leaves alone', () => {
  const intent = { id: 'pi_unknown', object: 'payment_intent', amount: 100, amount_received: 100, currency: 'usd' };

  it('a bad or missing signature is 400 and applies nothing', async () => {
    const event = FakeStripe.event('payment_intent.succeeded', { ...intent, metadata: {} }, wall.now());
    const forged = await deliver(event, 'whsec_someone_else');
    expect([forged.status, forged.body.error]).toEqual([400, 'InvalidWebhookSignature']);
    const unsigned = await call(base, 'POST', '/v1/integrations/stripe/webhook', {
      rawBody: JSON.stringify(event),
      headers: { 'content-type': 'application/json' },
    });
    expect([unsigned.status, unsigned.body.error]).toEqual([400, 'InvalidWebhookSignature']);
    const unreadable = await call(base, 'POST', '/v1/integrations/stripe/webhook', {
      rawBody: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'stripe-signature': 't=1,v1=0' },
    });
    expect([unreadable.status, unreadable.body.error]).toEqual([400, 'BadRequest']);
    expect(await sql('select id from billing.processor_events where id = ?', [event.id])).toEqual([]);
  });

  it("acknowledges what is not ours: other kinds, and other systems' payments on the same account", async () => {
    const foreign = FakeStripe.event('payment_intent.succeeded', { ...intent, metadata: {} }, wall.now());
    expect((await deliver(foreign)).body).toEqual({ received: true, result: 'ignored' });
    const other = FakeStripe.event('customer.created', { id: 'cus_1', object: 'customer' }, wall.now());
    expect((await deliver(other)).body).toEqual({ received: true, result: 'ignored' });
    // Another shop's PaymentIntent with metadata that looks like ours: nothing to wait for, nothing applied.
    const lookalike = { ...intent, id: 'pi_other_shop', metadata: { order_id: '1042', subscription_id: 'sub_9' } };
    const answer = await deliver(FakeStripe.event('payment_intent.succeeded', lookalike, wall.now()));
    expect([answer.status, answer.body]).toEqual([200, { received: true, result: 'ignored' }]);
  });

  it('the sandbox, which never charges through Stripe, answers 503', async () => {
    const event = FakeStripe.event('payment_intent.succeeded', intent, wall.now());
    const { payload, header } = FakeStripe.signedEvent(event, SECRET, wall.now());
    const answer = await call(stack.sandbox.baseUrl, 'POST', '/v1/integrations/stripe/webhook', {
      rawBody: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
    expect([answer.status, answer.body.error]).toEqual([503, 'ProcessorWebhookNotConfigured']);
  });
});
