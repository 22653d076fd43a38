import { webhooks } from '@polar-sh/sdk-1/2026-10';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { sellAndRenewOnce } from '../support/monthly-sale.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 13's proof, end to end in the sandbox: a merchant's receiver gets every event of a sale (a
 * checkout confirmed with pm_card_visa), of a renewal (the organization's clock moved a month) and of
 * a cancellation at period end (the clock moved past it), in the order they were recorded, each
 * verifiable by `standardwebhooks` and by the Polar SDK's `validateEvent`, which also parses every
 * payload with the SDK's own models (so each `data` has the public shape Polar's clients expect). That
 * endpoint has no API version, so it never gets `subscription.cycled`, a type 0.48.1 throws on, even
 * though it subscribed to it before versions existed; a 2026-10 endpoint gets it, and SDK 1.0.1 parses
 * every event it receives (docs/webhooks.md#api-versions).
 */
jest.setTimeout(180_000);

const EVENTS = [
  'checkout.created',
  'checkout.updated',
  'customer.created',
  'customer.updated',
  'order.created',
  'order.updated',
  'order.paid',
  'subscription.created',
  'subscription.active',
  'subscription.updated',
  'subscription.cycled',
  'subscription.canceled',
  'subscription.revoked',
];

let stack: TestStack;
let tenant: Tenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await sharedTestStack();
  tenant = await createTenant(stack.sandbox);
  receiver = await new WebhookReceiver().start();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
});

const api = (method: string, path: string, body?: unknown) =>
  call(stack.sandbox.baseUrl, method, path, { token: tenant.oat, body });

/** The event types the outbox recorded for the organization, in order, among those subscribed to. */
async function recordedTypes(): Promise<string[]> {
  const rows = await stack.sandbox.environment.billing.orm.em
    .fork()
    .execute<{ type: string }[]>(
      'select type from billing.events where organization_id = ? and type = any(?::text[]) order by created_at, id',
      [tenant.organizationId, `{${EVENTS.join(',')}}`],
    );
  return rows.map(r => r.type);
}

it('delivers a sale, a renewal and a cancellation in recorded order, each verified by both libraries', async () => {
  const newer = ['subscription.cycled'];
  const endpoint = await api('POST', '/v1/webhooks/endpoints', {
    url: receiver.url('/merchant'),
    format: 'raw',
    events: EVENTS.filter(type => !newer.includes(type)),
  });
  expect(endpoint.status).toBe(201);
  const secret = endpoint.body.secret as string;
  // As the API allowed before versions: an unversioned endpoint subscribed to `subscription.cycled`.
  await stack.sandbox.environment.webhooks.orm.em
    .fork()
    .execute('update webhooks.endpoints set events = ?::text[] where id = ?', [
      `{${EVENTS.join(',')}}`,
      endpoint.body.id,
    ]);
  const versioned = await api('POST', '/v1/webhooks/endpoints', {
    url: receiver.url('/merchant-2026-10'),
    format: 'raw',
    api_version: '2026-10',
    events: EVENTS,
  });
  expect(versioned.status).toBe(201);

  // The sale.
  const product = await api('POST', '/v1/products/', {
    name: 'Pro',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 1500, price_currency: 'usd' }],
  });
  expect(product.status).toBe(201);
  const { subscription } = await sellAndRenewOnce(stack.sandbox.baseUrl, api, product.body.id, 1500);

  // The cancellation at period end, then the end.
  const canceled = await api('PATCH', `/v1/subscriptions/${subscription.id}`, { cancel_at_period_end: true });
  expect(canceled.status).toBe(200);
  const period = await api('GET', `/v1/subscriptions/${subscription.id}`);
  const ended = await api('POST', '/v1/sandbox/clock/advance', { to: period.body.current_period_end });
  expect(ended.status).toBe(200);
  expect((await api('GET', `/v1/subscriptions/${subscription.id}`)).body).toMatchObject({ status: 'canceled' });

  const recorded = await recordedTypes();
  for (const type of ['subscription.cycled', 'order.paid', 'subscription.canceled', 'subscription.revoked'])
    expect(recorded).toContain(type);
  const expected = recorded.filter(type => !newer.includes(type));
  await receiver.until(() => receiver.on('/merchant').length >= expected.length, `${expected.length} webhooks`);
  await receiver.until(() => receiver.on('/merchant-2026-10').length >= recorded.length, 'versioned webhooks');
  const received = receiver.on('/merchant');
  expect(received.map(r => JSON.parse(r.body).type)).toEqual(expected);
  const versionedEvents = await Promise.all(
    receiver
      .on('/merchant-2026-10')
      .map(r => webhooks.validateEvent(r.body, r.headers as Record<string, string>, versioned.body.secret)),
  );
  expect(versionedEvents.map(e => e.type)).toEqual(recorded);
  expect(new Set(versionedEvents.map(e => e.api_version))).toEqual(new Set(['2026-10']));

  for (const r of received) {
    const headers = {
      'webhook-id': r.headers['webhook-id'] as string,
      'webhook-timestamp': r.headers['webhook-timestamp'] as string,
      'webhook-signature': r.headers['webhook-signature'] as string,
    };
    const type = JSON.parse(r.body).type;
    expect(new Webhook(secret).verify(r.body, headers)).toMatchObject({ type });
    expect(validateEvent(r.body, headers, secret).type).toBe(type);
  }
  expect(new Set(received.map(r => r.headers['webhook-id'])).size).toBe(received.length);
  // The renewal's own events carry the instant it was due, not the time the clock was moved.
  const cycled = received
    .map(r => JSON.parse(r.body))
    .find(e => e.type === 'order.paid' && e.data.billing_reason === 'subscription_cycle');
  expect(cycled.timestamp.slice(0, 16)).toBe(subscription.current_period_end.slice(0, 16));
});
