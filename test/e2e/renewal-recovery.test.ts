import { validateEvent } from '@polar-sh/sdk/webhooks';
import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 11, proved end to end: a declined renewal recovered by a new default card. The customer's
 * saved card is switched (in the portal) to one that fails every charge; the renewal is declined and
 * the subscription goes past due; the customer adds a Mastercard as the new default in the portal;
 * the next dunning retry (2 days later, on the organization's sandbox clock) charges the Mastercard,
 * pays the order and makes the subscription active again.
 */
jest.setTimeout(120_000);
const START = new Date('2028-03-10T08:00:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;
let owner: Tenant;
let receiver: WebhookReceiver;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox);
  receiver = await new WebhookReceiver().start();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
});

/** What the merchant listens to (`subscription.cycled` is newer than the SDK 0.48.1 that parses them here). */
const EVENTS = [
  'order.created',
  'order.paid',
  'order.updated',
  'subscription.updated',
  'subscription.past_due',
  'subscription.active',
  'customer.state_changed',
];

describe('a declined renewal recovered by a new default card', () => {
  it('the next dunning retry charges the new default card: order paid, subscription active', async () => {
    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/billing'),
      format: 'raw',
      events: EVENTS,
    });
    expect(endpoint.status).toBe(201);
    const product = await api('POST', '/v1/products/', {
      name: 'Team',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 4900 }],
    });
    expect(product.status).toBe(201);
    const checkout = await api('POST', '/v1/checkouts/', {
      products: [product.body.id],
      customer_email: 'team@example.com',
    });
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    const customerToken = confirmed.body.customer_session_token as string;
    const [sub] = (await api('GET', `/v1/subscriptions/?customer_id=${confirmed.body.customer_id}`)).body.items;
    // A checkout's sale is stamped 2 ms after its confirm.
    expect(sub).toMatchObject({ status: 'active', current_period_end: '2028-04-10T08:00:00.002Z', amount: 4900 });

    const portalCards = (method: string, body?: unknown) =>
      call(base, method, '/v1/customer-portal/customers/me/payment-methods', { token: customerToken, body });
    const addCard = (name: string) =>
      portalCards('POST', { confirmation_token_id: name, set_default: true, return_url: 'https://shop.example/back' });

    // The saved card becomes one that is declined on every charge.
    const failing = await addCard('pm_card_chargeCustomerFail');
    expect(failing.status).toBe(201);

    const advance = async (to: string) => {
      const res = await api('POST', '/v1/sandbox/clock/advance', { to });
      expect([res.status, res.body]).toEqual([200, { organization_id: owner.organizationId, now: to }]);
    };
    const renewalOrder = async () => {
      const orders = await api('GET', `/v1/orders/?subscription_id=${sub.id}&sorting=created_at&limit=100`);
      return orders.body.items.find((o: any) => o.billing_reason === 'subscription_cycle');
    };
    /** The order's payments, with the card each one was charged to (brand and last 4). */
    const payments = async (orderId: string) => {
      const res = await api('GET', `/v1/payments/?order_id=${orderId}&sorting=created_at&limit=100`);
      return (res.body.items as any[]).map(p => ({
        ...p,
        card: `${p.method_metadata.brand} ${p.method_metadata.last4}`,
      }));
    };

    await advance('2028-04-10T12:00:00.000Z');
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body).toMatchObject({
      status: 'past_due',
      past_due_at: '2028-04-10T08:00:00.002Z',
    });
    const declined = await renewalOrder();
    expect(declined).toMatchObject({
      status: 'pending',
      total_amount: 4900,
      next_payment_attempt_at: '2028-04-12T08:00:00.002Z',
    });
    // What started each attempt (its `trigger`): the renewal, then dunning's retry.
    expect((await payments(declined.id)).map(p => [p.status, p.amount, p.card, p.trigger])).toEqual([
      ['failed', 4900, 'visa 0341', 'subscription_cycle'],
    ]);

    // The customer adds a Mastercard as the new default.
    const mastercard = await addCard('pm_card_mastercard');
    expect(mastercard.status).toBe(201);
    expect(mastercard.body).toMatchObject({
      status: 'succeeded',
      payment_method: { is_default: true, method_metadata: { brand: 'mastercard', last4: '4444' } },
    });
    const cards = (await portalCards('GET')).body.items as any[];
    expect(cards.filter(c => c.is_default).map(c => c.method_metadata.last4)).toEqual(['4444']);

    // Nothing is charged before the retry is due.
    await advance('2028-04-12T08:00:00.000Z');
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body.status).toBe('past_due');
    expect(await payments(declined.id)).toHaveLength(1);

    await advance('2028-04-12T08:00:00.002Z');
    expect((await payments(declined.id)).map(p => [p.status, p.amount, p.card, p.created_at, p.trigger])).toEqual([
      ['failed', 4900, 'visa 0341', expect.any(String), 'subscription_cycle'],
      ['succeeded', 4900, 'mastercard 4444', '2028-04-12T08:00:00.002Z', 'retry_dunning'],
    ]);
    expect(await renewalOrder()).toMatchObject({ id: declined.id, status: 'paid', next_payment_attempt_at: null });
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body).toMatchObject({
      status: 'active',
      past_due_at: null,
      current_period_start: '2028-04-10T08:00:00.002Z',
      current_period_end: '2028-05-10T08:00:00.002Z',
    });

    const events = await stack.sandbox.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute<{ type: string; created_at: Date }[]>(
        `select type, created_at from billing.events where organization_id = ? and payload->>'id' in (?, ?) order by created_at, id`,
        [owner.organizationId, sub.id, declined.id],
      );
    const after = events.filter(e => new Date(e.created_at) >= new Date('2028-04-10T00:00:00Z')).map(e => e.type);
    expect(after).toEqual(expect.arrayContaining(['subscription.past_due', 'order.paid', 'subscription.active']));
    expect(after.lastIndexOf('subscription.active')).toBeGreaterThan(after.indexOf('subscription.past_due'));
    // The sale's `subscription.active`, then the recovery's, stamped at the retry.
    const actives = events.filter(e => e.type === 'subscription.active').map(e => new Date(e.created_at).toISOString());
    expect(actives).toHaveLength(2);
    expect(actives[1].slice(0, 16)).toBe('2028-04-12T08:00');

    // The merchant's endpoint heard it all, each body verified and parsed by the SDK.
    await receiver.until(
      () =>
        receiver.on('/billing').some(r => r.body.includes('"subscription.active"') && r.body.includes('2028-04-12')),
      'the recovery webhook',
    );
    const heard = receiver.on('/billing').map(r => {
      const headers = {
        'webhook-id': r.headers['webhook-id'] as string,
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      };
      return validateEvent(r.body, headers, endpoint.body.secret) as { type: string; data: { id: string } };
    });
    const aboutRenewal = heard.filter(e => e.data.id === sub.id || e.data.id === declined.id).map(e => e.type);
    expect(aboutRenewal).toEqual(
      expect.arrayContaining(['subscription.past_due', 'order.created', 'order.paid', 'subscription.active']),
    );
    expect(aboutRenewal.lastIndexOf('subscription.active')).toBeGreaterThan(
      aboutRenewal.indexOf('subscription.past_due'),
    );

    // The next period renews on the Mastercard as usual.
    await advance('2028-05-10T09:00:00.000Z');
    const orders = await api('GET', `/v1/orders/?subscription_id=${sub.id}&sorting=created_at&limit=100`);
    expect(orders.body.items.map((o: any) => [o.billing_reason, o.status, o.total_amount])).toEqual([
      ['subscription_create', 'paid', 4900],
      ['subscription_cycle', 'paid', 4900],
      ['subscription_cycle', 'paid', 4900],
    ]);
    const third = orders.body.items[2];
    expect((await payments(third.id)).map(p => p.card)).toEqual(['mastercard 4444']);
  });
});
