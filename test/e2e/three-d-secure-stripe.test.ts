import { ManualClock } from '../../kit/clock.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { call, type TestStack } from '../support/stack.js';
import { StripeStack } from '../support/stripe-stack.js';

/**
 * 3-D Secure in production against the fake Stripe (docs/payments.md): a confirm whose PaymentIntent
 * (or a trial's SetupIntent) Stripe answers `requires_action` is 200 `confirmed` with Polar's
 * `intent_status` / `intent_client_secret` and no order; the signed `payment_intent.succeeded` fulfils
 * it once (a replay is a duplicate), `payment_intent.payment_failed` reopens it with nothing charged
 * and its discount given back; `setup_intent.succeeded` starts the trial. A charge Stripe answers
 * `processing` is confirmed the same way (Polar's `intent_status` is the intent's) and settled alike.
 */
jest.setTimeout(120_000);
const SECRET = 'whsec_3ds_secret';
const wall = new ManualClock(new Date('2027-03-10T09:00:00.000Z'));
const world = new StripeStack(SECRET, wall);
const stripe = world.stripe;
let stack: TestStack;
let base: string;

beforeAll(async () => {
  ({ stack, base } = await world.start('three_d_secure_stripe'));
}, 120_000);
afterAll(() => world.close());

const { api, deliver, product } = world;

/** Waits for the fulfilment job the event enqueued (the job runner takes it on the commit's notice). */
async function settledCheckout(id: string, status: string): Promise<Record<string, any>> {
  for (;;) {
    const res = await api('GET', `/v1/checkouts/${id}`);
    if (res.body.status === status) return res.body;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

async function confirmWith3ds(body: Record<string, unknown>, card = 'pm_card_threeDSecure2Required') {
  const checkout = await api('POST', '/v1/checkouts/', body);
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: `ctoken_${card}` },
  });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.status).toBe('confirmed');
  expect(confirmed.body.payment_processor_metadata).toEqual({
    intent_status: 'requires_action',
    intent_client_secret: expect.stringMatching(/^pi_.+_secret_|^seti_.+_secret_/),
  });
  return { checkout: checkout.body, confirmed: confirmed.body };
}

describe('a charge that needs 3-D Secure', () => {
  it('answers requires_action, then payment_intent.succeeded fulfils it once', async () => {
    const productId = await product({ prices: [{ amount_type: 'fixed', price_amount: 2500 }] });
    const { checkout, confirmed } = await confirmWith3ds({ products: [productId], customer_email: 'a@example.com' });
    const client = await call(base, 'GET', `/v1/checkouts/client/${checkout.client_secret}`);
    expect(client.body.payment_processor_metadata).toEqual(confirmed.payment_processor_metadata);
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items).toEqual([]);
    const payments = await api('GET', `/v1/payments/?checkout_id=${checkout.id}`);
    expect(payments.body.items).toEqual([expect.objectContaining({ status: 'pending', amount: 2500 })]);

    const intent = [...stripe.paymentIntents.values()].at(-1)!;
    expect(confirmed.payment_processor_metadata.intent_client_secret).toBe(intent.client_secret);
    const event = FakeStripe.event('payment_intent.succeeded', {
      ...intent,
      status: 'succeeded',
      amount_received: 2500,
    });
    expect((await deliver(event)).body).toEqual({ received: true, result: 'handled' });
    const done = await settledCheckout(checkout.id, 'succeeded');
    expect(done.payment_processor_metadata.intent_status).toBe('succeeded');
    const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.id}`);
    expect(orders.body.items).toEqual([expect.objectContaining({ status: 'paid', total_amount: 2500 })]);
    expect((await api('GET', `/v1/payments/?checkout_id=${checkout.id}`)).body.items).toEqual([
      expect.objectContaining({ status: 'succeeded', order_id: orders.body.items[0].id }),
    ]);

    expect((await deliver(event)).body).toEqual({ received: true, result: 'duplicate' });
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items).toHaveLength(1);
  });

  it('payment_intent.payment_failed reopens the checkout: no order, nothing charged, the discount back', async () => {
    const productId = await product({ prices: [{ amount_type: 'fixed', price_amount: 4000 }] });
    const discount = await api('POST', '/v1/discounts/', {
      name: 'Once',
      type: 'percentage',
      basis_points: 1000,
      duration: 'once',
      max_redemptions: 1,
    });
    expect(discount.status).toBe(201);
    const { checkout } = await confirmWith3ds({
      products: [productId],
      customer_email: 'b@example.com',
      discount_id: discount.body.id,
    });
    expect((await api('GET', `/v1/discounts/${discount.body.id}`)).body.redemptions_count).toBe(1);
    const intent = [...stripe.paymentIntents.values()].at(-1)!;
    const failure = {
      code: 'payment_intent_authentication_failure',
      message: 'We are unable to authenticate your payment method.',
    };
    const event = FakeStripe.event('payment_intent.payment_failed', {
      ...intent,
      status: 'requires_payment_method',
      last_payment_error: failure,
    });
    expect((await deliver(event)).body).toEqual({ received: true, result: 'handled' });
    const reopened = (await api('GET', `/v1/checkouts/${checkout.id}`)).body;
    expect(reopened.status).toBe('open');
    expect(reopened.payment_processor_metadata).toEqual({});
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items).toEqual([]);
    expect((await api('GET', `/v1/payments/?checkout_id=${checkout.id}`)).body.items).toEqual([
      expect.objectContaining({ status: 'failed', decline_reason: 'payment_intent_authentication_failure' }),
    ]);
    expect((await api('GET', `/v1/discounts/${discount.body.id}`)).body.redemptions_count).toBe(0);
  });
});

describe('a charge Stripe answers processing', () => {
  it("is confirmed as Polar's confirm is (intent_status processing), then payment_intent.succeeded fulfils it", async () => {
    const productId = await product({ prices: [{ amount_type: 'fixed', price_amount: 1800 }] });
    const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: 'p@example.com' });
    stripe.chargeStatus = 'processing';
    let confirmed: Awaited<ReturnType<typeof call>>;
    try {
      confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
        body: { confirmation_token_id: 'ctoken_pm_card_visa' },
      });
    } finally {
      stripe.chargeStatus = 'succeeded';
    }
    expect([confirmed.status, confirmed.body.status]).toEqual([200, 'confirmed']);
    const intent = [...stripe.paymentIntents.values()].at(-1)!;
    expect(confirmed.body.payment_processor_metadata).toEqual({
      intent_status: 'processing',
      intent_client_secret: intent.client_secret,
    });
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items).toEqual([]);
    expect((await api('GET', `/v1/payments/?checkout_id=${checkout.body.id}`)).body.items).toEqual([
      expect.objectContaining({ status: 'pending', amount: 1800 }),
    ]);

    const event = FakeStripe.event('payment_intent.succeeded', {
      ...intent,
      status: 'succeeded',
      amount_received: 1800,
    });
    expect((await deliver(event)).body).toEqual({ received: true, result: 'handled' });
    await settledCheckout(checkout.body.id, 'succeeded');
    expect((await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items).toEqual([
      expect.objectContaining({ status: 'paid', total_amount: 1800 }),
    ]);
  });
});

describe('a trial whose card needs 3-D Secure to be saved', () => {
  it('answers requires_action; setup_intent.succeeded starts the trial with the card kept', async () => {
    const checkout = await trialCheckoutNeeding3ds('t@example.com');
    const setups = stripe.requests.filter(r => r.path === '/v1/setup_intents');
    expect(setups).toHaveLength(1);
    const card = [...stripe.paymentMethods.values()].at(-1)!;
    const intent = {
      id: await setupIntentIdOf(checkout.id),
      object: 'setup_intent',
      status: 'succeeded',
      payment_method: card.id,
      metadata: {},
      last_setup_error: null,
    };
    expect((await deliver(FakeStripe.event('setup_intent.succeeded', intent))).body).toEqual({
      received: true,
      result: 'handled',
    });
    await settledCheckout(checkout.id, 'succeeded');
    const customerId = (await api('GET', `/v1/checkouts/${checkout.id}`)).body.customer_id;
    const subscriptions = await api('GET', `/v1/subscriptions/?customer_id=${customerId}`);
    expect(subscriptions.body.items).toEqual([expect.objectContaining({ status: 'trialing' })]);
    const customer = await api('GET', `/v1/customers/${customerId}`);
    expect(customer.body.default_payment_method_id).toEqual(expect.any(String));
  });
});

describe('a trial whose card fails its 3-D Secure when saved', () => {
  it('setup_intent.setup_failed reopens the checkout: no subscription, no card kept', async () => {
    const checkout = await trialCheckoutNeeding3ds('no-setup@example.com');
    const intent = {
      id: await setupIntentIdOf(checkout.id),
      object: 'setup_intent',
      status: 'requires_payment_method',
      payment_method: null,
      metadata: {},
      last_setup_error: { code: 'setup_intent_authentication_failure', message: 'We are unable to authenticate.' },
    };
    expect((await deliver(FakeStripe.event('setup_intent.setup_failed', intent))).body).toEqual({
      received: true,
      result: 'handled',
    });
    const reopened = (await api('GET', `/v1/checkouts/${checkout.id}`)).body;
    expect(reopened).toMatchObject({ status: 'open', payment_processor_metadata: {} });
    const customerId = reopened.customer_id;
    expect((await api('GET', `/v1/subscriptions/?customer_id=${customerId}`)).body.items).toEqual([]);
    expect((await api('GET', `/v1/customers/${customerId}`)).body.default_payment_method_id).toBeNull();
  });
});

/** A 7-day trial confirmed with a card whose saving needs 3-D Secure: the checkout waits on a SetupIntent. */
async function trialCheckoutNeeding3ds(email: string) {
  const productId = await product({
    recurring_interval: 'month',
    trial_interval: 'day',
    trial_interval_count: 7,
    prices: [{ amount_type: 'fixed', price_amount: 900 }],
  });
  const { checkout } = await confirmWith3ds(
    { products: [productId], customer_email: email },
    'pm_card_authenticationRequired',
  );
  return checkout;
}

/** The SetupIntent the checkout waits for (the fake answers it with a fresh id each time). */
async function setupIntentIdOf(checkoutId: string): Promise<string> {
  const [row] = await stack.production.environment.billing.orm.em
    .fork()
    .getConnection()
    .execute<{ pending_intent_id: string }[]>('select pending_intent_id from billing.checkouts where id = ?', [
      checkoutId,
    ]);
  return row.pending_intent_id;
}

// Last: it moves the clock past a trial, then a renewal.
describe('a renewal that needs 3-D Secure', () => {
  it('goes past_due; the portal confirm-payment answers requires_action; payment_intent.succeeded pays it once', async () => {
    const checkout = await trialCheckoutNeeding3ds('renewal-3ds@example.com');
    const card = [...stripe.paymentMethods.values()].at(-1)!;
    const setup = { id: await setupIntentIdOf(checkout.id), object: 'setup_intent', status: 'succeeded' };
    await deliver(FakeStripe.event('setup_intent.succeeded', { ...setup, payment_method: card.id, metadata: {} }));
    await settledCheckout(checkout.id, 'succeeded');
    const customerId = (await api('GET', `/v1/checkouts/${checkout.id}`)).body.customer_id;
    const [sub] = (await api('GET', `/v1/subscriptions/?customer_id=${customerId}`)).body.items;

    // The renewal charges off-session: Stripe declines it authentication_required.
    wall.set(new Date(new Date(sub.current_period_end).getTime() + 1000));
    expect(await stack.production.environment.billing.renewals.tick()).toBeGreaterThan(0);
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body.status).toBe('past_due');
    const orders = (await api('GET', `/v1/orders/?customer_id=${customerId}`)).body.items;
    const order = orders.find((o: any) => o.billing_reason === 'subscription_cycle');
    expect(order).toMatchObject({ status: 'pending', total_amount: 900 });

    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
    const confirm = await call(base, 'POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, {
      token: session.body.token,
      body: {},
    });
    expect(confirm.status).toBe(200);
    const intent = [...stripe.paymentIntents.values()].at(-1)!;
    expect(intent).toMatchObject({
      status: 'requires_action',
      metadata: expect.objectContaining({ order_id: order.id }),
    });
    expect(confirm.body).toEqual({ status: 'requires_action', client_secret: intent.client_secret, error: null });

    const event = FakeStripe.event('payment_intent.succeeded', {
      ...intent,
      status: 'succeeded',
      amount_received: 900,
    });
    expect((await deliver(event)).body).toEqual({ received: true, result: 'handled' });
    expect((await api('GET', `/v1/orders/${order.id}`)).body).toMatchObject({ status: 'paid', paid: true });
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body.status).toBe('active');
    expect((await deliver(event)).body).toEqual({ received: true, result: 'duplicate' });
    // One declined renewal charge, one paid portal payment (the same clock instant: no order between them).
    const payments = (await api('GET', `/v1/payments/?order_id=${order.id}`)).body.items;
    expect(payments.map((p: any) => [p.status, p.decline_reason]).sort()).toEqual([
      ['failed', 'authentication_required'],
      ['succeeded', null],
    ]);
  });
});
