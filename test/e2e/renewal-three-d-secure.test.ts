import type { TestPaymentProcessor } from '../../subgraphs/billing/payments/test-processor/test-processor.js';
import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { firstValue } from '../support/until.js';

/**
 * A renewal that needs 3-D Secure, in the sandbox, through the API (docs/recurring.md, docs/payments.md):
 * the saved card is Stripe's `pm_card_authenticationRequired`, so the renewal's off-session charge is
 * declined `authentication_required` and the subscription goes past due; the portal's confirm-payment
 * answers `requires_action` with a client secret, and the sandbox's challenge (the service its page
 * uses) settles it. While that payment waits, the dunning retry is held back and another manual try is
 * 409; a payment abandoned for an hour no longer holds dunning and cannot succeed late.
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

const challenges = () => stack.sandbox.environment.billing.services.paymentChallenges!;

async function merchant() {
  const owner: Tenant = await createTenant(stack.sandbox);
  const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
  const advance = async (to: string) => {
    const res = await api('POST', '/v1/sandbox/clock/advance', { to });
    expect(res.status).toBe(200);
  };
  const subscription = async (id: string) => (await api('GET', `/v1/subscriptions/${id}`)).body;
  const renewalOrder = async (id: string) => {
    const res = await api('GET', `/v1/orders/?subscription_id=${id}&limit=100&sorting=created_at`);
    return res.body.items.find((o: any) => o.billing_reason === 'subscription_cycle');
  };
  const payments = async (orderId: string) => {
    const res = await api('GET', `/v1/payments/?order_id=${orderId}&limit=100&sorting=created_at`);
    expect(res.status).toBe(200);
    return res.body.items.map((p: any) => [p.status, p.decline_reason]);
  };
  /** A monthly plan bought with `card` (its 3-D Secure challenge completed when it asks for one). */
  const subscribe = async (card: string, trial = false) => {
    const product = await api('POST', '/v1/products/', {
      name: 'Plan',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1000 }],
      ...(trial ? { trial_interval: 'day', trial_interval_count: 3 } : {}),
    });
    const checkout = await api('POST', '/v1/checkouts/', {
      products: [product.body.id],
      customer_email: 'buyer@example.com',
    });
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: card },
    });
    expect(confirmed.status).toBe(200);
    const secret = confirmed.body.payment_processor_metadata?.intent_client_secret;
    if (secret) expect((await challenges().settle(secret, true)).status).toBe('succeeded');
    const list = await api('GET', '/v1/subscriptions/?limit=100');
    const sub = list.body.items.find((s: any) => s.checkout_id === checkout.body.id);
    expect(sub.status).toBe(trial ? 'trialing' : 'active');
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: sub.customer_id });
    const portal = (method: string, path: string, body?: unknown) =>
      call(base, method, path, { token: session.body.token, body });
    return { sub, portal };
  };
  return { api, advance, subscription, renewalOrder, payments, subscribe };
}

/** A subscription bought on 31 January with a card that needs authentication, past due since its renewal. */
async function pastDueWithAuthentication() {
  const m = await merchant();
  const { sub, portal } = await m.subscribe('pm_card_authenticationRequired');
  await m.advance('2028-02-29T10:00:00.000Z');
  expect(await m.subscription(sub.id)).toMatchObject({ status: 'past_due' });
  const order = await m.renewalOrder(sub.id);
  expect(order).toMatchObject({ status: 'pending', next_payment_attempt_at: '2028-03-02T09:30:00.002Z' });
  expect(await m.payments(order.id)).toEqual([['failed', 'authentication_required']]);
  await pastDueMailTo('buyer@example.com', m.api);
  const confirmPayment = (body: unknown = {}) =>
    portal('POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, body);
  return { m, sub, order, portal, confirmPayment };
}

/**
 * The customer is told, as after any failed renewal: the past-due e-mail (docs/email.md), read from the
 * sandbox's outgoing mail once its job has run after the renewal's commit (looked for up to 60 s).
 */
async function pastDueMailTo(to: string, api: (method: string, path: string) => Promise<{ body: any }>) {
  const message = await firstValue(
    async () =>
      (await api('GET', '/v1/sandbox/emails/?limit=100')).body.items.find(
        (m: any) => m.kind === 'subscription_past_due' && m.to === to,
      ),
    60_000,
    100,
  );
  if (message) return message;
  throw new Error(`no subscription_past_due e-mail to ${to} within 60 s`);
}

describe('a renewal that needs 3-D Secure', () => {
  it('is paid once by the portal confirm-payment and its challenge; the dunning retry waits meanwhile', async () => {
    const { m, sub, order, confirmPayment } = await pastDueWithAuthentication();
    await m.advance('2028-03-02T09:00:00.000Z');
    const waiting = await confirmPayment();
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({ status: 'requires_action', error: null });
    expect(waiting.body.client_secret).toMatch(/^ch_test_.+_secret_/);
    // Another manual try while this one waits: 409, as Polar's payment lock answers.
    const second = await confirmPayment({ confirmation_token_id: 'pm_card_visa' });
    expect([second.status, second.body.error]).toEqual([409, 'PaymentAlreadyInProgress']);

    // The retry comes due (09:30) while the payment waits: nothing is charged.
    await m.advance('2028-03-02T09:45:00.000Z');
    expect(await m.payments(order.id)).toEqual([
      ['failed', 'authentication_required'],
      ['pending', null],
    ]);
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'past_due' });

    expect((await challenges().settle(waiting.body.client_secret, true)).status).toBe('succeeded');
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'active', past_due_at: null });
    expect(await m.renewalOrder(sub.id)).toMatchObject({ status: 'paid', next_payment_attempt_at: null });
    // Days later nothing more was charged: one success.
    await m.advance('2028-03-10T09:00:00.000Z');
    expect(await m.payments(order.id)).toEqual([
      ['failed', 'authentication_required'],
      ['succeeded', null],
    ]);
  });

  it('a failed challenge leaves it past due and the held retry then runs on its schedule', async () => {
    const { m, sub, order, confirmPayment } = await pastDueWithAuthentication();
    await m.advance('2028-03-02T09:00:00.000Z');
    const waiting = await confirmPayment();
    await m.advance('2028-03-02T09:45:00.000Z');
    expect((await challenges().settle(waiting.body.client_secret, false)).status).toBe('failed');
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'past_due' });
    expect(await m.payments(order.id)).toEqual([
      ['failed', 'authentication_required'],
      ['failed', 'payment_intent_authentication_failure'],
    ]);
    // The retry due at 09:30 runs at the next turn of the clock: declined off-session again, dunning goes on.
    await m.advance('2028-03-02T09:50:00.000Z');
    expect(await m.payments(order.id)).toEqual([
      ['failed', 'authentication_required'],
      ['failed', 'payment_intent_authentication_failure'],
      ['failed', 'authentication_required'],
    ]);
    const after = await m.renewalOrder(sub.id);
    expect(after.status).toBe('pending');
    expect(after.next_payment_attempt_at > '2028-03-06T00:00:00.000Z').toBe(true);
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'past_due' });
  });

  it('a manual payment is 409 while an automatic attempt holds the order', async () => {
    const { order, confirmPayment } = await pastDueWithAuthentication();
    // The dunning retry holds the order's row while it charges (renewal-engine.ts): the same lock, held here.
    let release!: () => void;
    const held = new Promise<void>(resolve => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>(resolve => {
      locked = resolve;
    });
    const holder = stack.sandbox.environment.billing.orm.em.fork().transactional(async em => {
      await em.execute('select id from billing.orders where id = ? for update', [order.id]);
      locked();
      await held;
    });
    await isLocked;
    const refused = await confirmPayment({ confirmation_token_id: 'pm_card_visa' });
    release();
    await holder;
    expect([refused.status, refused.body.error]).toEqual([409, 'PaymentAlreadyInProgress']);
  });

  it('a payment abandoned for an hour no longer holds dunning, and its late authentication fails', async () => {
    const m = await merchant();
    // A trial, so the declining card is only saved; the renewal after it is declined.
    const { sub, portal } = await m.subscribe('pm_card_chargeCustomerFail', true);
    await m.advance('2028-02-03T10:00:00.000Z');
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'past_due' });
    const order = await m.renewalOrder(sub.id);
    const retryAt = order.next_payment_attempt_at as string;
    const waiting = await portal('POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, {
      confirmation_token_id: 'pm_card_threeDSecure2Required',
    });
    expect(waiting.body.status).toBe('requires_action');
    // The customer leaves the bank page open and saves a working card as the default instead.
    const added = await portal('POST', '/v1/customer-portal/customers/me/payment-methods', {
      confirmation_token_id: 'pm_card_visa',
      set_default: true,
      return_url: 'https://merchant.example/back',
    });
    expect(added.status).toBe(201);

    // At the retry's time (two days on) the wait is long over: the retry charges the default card.
    await m.advance(new Date(new Date(retryAt).getTime() + 60_000).toISOString());
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'active' });
    const paid = await m.payments(order.id);
    expect(paid.slice(1)).toEqual([
      ['failed', 'abandoned'],
      ['succeeded', null],
    ]);
    // The abandoned charge was canceled at the processor before the retry: answering the bank page late
    // fails, the order stays paid once.
    expect((await challenges().settle(waiting.body.client_secret, true)).status).toBe('canceled');
    expect(await m.payments(order.id)).toEqual(paid);
    expect(await m.renewalOrder(sub.id)).toMatchObject({ status: 'paid' });
  });

  it('an abandoned payment the customer authenticated after all pays the order: no retry charges it again', async () => {
    const m = await merchant();
    const { sub, portal } = await m.subscribe('pm_card_chargeCustomerFail', true);
    await m.advance('2028-02-03T10:00:00.000Z');
    const order = await m.renewalOrder(sub.id);
    const waiting = await portal('POST', `/v1/customer-portal/orders/${order.id}/confirm-payment`, {
      confirmation_token_id: 'pm_card_threeDSecure2Required',
    });
    expect(waiting.body.status).toBe('requires_action');
    // The customer authenticated at the bank, but the processor's event never reached us.
    const ledger = stack.sandbox.environment.billing.services.payments as TestPaymentProcessor;
    expect((await ledger.challenges().settle(waiting.body.client_secret, true))?.challenge.status).toBe('succeeded');

    // At the retry's time the payment counts as abandoned: canceling it finds it paid, so that pays the order.
    await m.advance(new Date(new Date(order.next_payment_attempt_at).getTime() + 60_000).toISOString());
    expect(await m.subscription(sub.id)).toMatchObject({ status: 'active' });
    expect(await m.renewalOrder(sub.id)).toMatchObject({ status: 'paid', next_payment_attempt_at: null });
    expect((await m.payments(order.id)).slice(1)).toEqual([['succeeded', null]]);
  });
});
