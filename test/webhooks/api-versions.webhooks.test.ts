import { createPolar, webhooks } from '@polar-sh/sdk-1/2026-10';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { until } from '../support/until.js';

/**
 * Webhook endpoints with an API version (docs/webhooks.md#api-versions): SDK 1.0.1 creates one and
 * verifies and parses what it receives (the envelope names the version); an endpoint without a version
 * receives only what 0.48.1's `validateEvent` parses, even one subscribed to a newer type before
 * versions existed; an unknown version or a type the version does not know is a 422 that changes nothing.
 */
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

const headersOf = (hook: { headers: Record<string, unknown> }) => ({
  'webhook-id': hook.headers['webhook-id'] as string,
  'webhook-timestamp': hook.headers['webhook-timestamp'] as string,
  'webhook-signature': hook.headers['webhook-signature'] as string,
});

async function endpointCount(): Promise<number> {
  return (await api('GET', '/v1/webhooks/endpoints')).body.items.length;
}

describe('creating and changing an endpoint with api_version', () => {
  it('creates one through SDK 1.0.1 and over HTTP, and answers api_version and uses_standard_webhook_signature', async () => {
    const polar = createPolar({ accessToken: tenant.oat, baseUrl: stack.sandbox.baseUrl });
    const created = await polar.webhooks.createWebhookEndpoint({
      url: receiver.url('/sdk-created'),
      format: 'raw',
      api_version: '2026-10',
      events: ['subscription.cycled', 'discount.created'],
    });
    expect(created).toMatchObject({ api_version: '2026-10', uses_standard_webhook_signature: true });
    expect(await polar.webhooks.getWebhookEndpoint(created.id)).toMatchObject({ api_version: '2026-10' });

    const raw = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/raw-created'),
      format: 'raw',
      api_version: '2027-01',
      events: ['customer.created'],
    });
    expect(raw.status).toBe(201);
    expect(raw.body).toMatchObject({ api_version: '2027-01', uses_standard_webhook_signature: true });
    const updated = await api('PATCH', `/v1/webhooks/endpoints/${raw.body.id}`, { api_version: '2026-04' });
    expect(updated.status).toBe(200);
    expect(updated.body.api_version).toBe('2026-04');

    // Without a version: it still answers one (the default; the SDK's type requires it).
    const legacy = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/legacy-created'),
      format: 'raw',
      events: ['customer.created'],
    });
    expect(legacy.status).toBe(201);
    expect(legacy.body).toMatchObject({ api_version: '2026-04', uses_standard_webhook_signature: true });
  });

  it('refuses an unknown version with 422 in the validation shape, creating nothing', async () => {
    const before = await endpointCount();
    const refused = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/bad'),
      format: 'raw',
      api_version: '2025-01',
      events: ['customer.created'],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'api_version'], input: '2025-01', type: expect.any(String) }),
    ]);
    expect(await endpointCount()).toBe(before);
  });

  it('refuses, on create and update, an event type the endpoint version does not know, changing nothing', async () => {
    const before = await endpointCount();
    const refused = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/legacy-cycled'),
      format: 'raw',
      events: ['customer.created', 'subscription.cycled'],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'events', 1], input: 'subscription.cycled', type: 'value_error' }),
    ]);
    expect(await endpointCount()).toBe(before);

    const legacy = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/legacy-update'),
      format: 'raw',
      events: ['customer.created'],
    });
    const update = await api('PATCH', `/v1/webhooks/endpoints/${legacy.body.id}`, {
      events: ['discount.created'],
    });
    expect(update.status).toBe(422);
    expect(update.body.detail[0]).toMatchObject({ loc: ['body', 'events', 0], input: 'discount.created' });
    expect((await api('GET', `/v1/webhooks/endpoints/${legacy.body.id}`)).body.events).toEqual(['customer.created']);
    // With a version, the same types are accepted.
    const versioned = await api('PATCH', `/v1/webhooks/endpoints/${legacy.body.id}`, {
      api_version: '2026-10',
      events: ['discount.created'],
    });
    expect(versioned.status).toBe(200);
    expect(versioned.body).toMatchObject({ api_version: '2026-10', events: ['discount.created'] });
  });
});

describe('deliveries per version', () => {
  it('a 2026-10 endpoint gets the versioned envelope, verified and parsed by SDK 1.0.1; a legacy one never a newer type', async () => {
    const versioned = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/v2026-10'),
      format: 'raw',
      api_version: '2026-10',
      events: ['customer.created', 'discount.created'],
    });
    const legacy = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/legacy'),
      format: 'raw',
      events: ['customer.created'],
    });
    // An endpoint subscribed to a newer type before versions existed (as the API allowed then).
    await stack.sandbox.environment.webhooks.orm.em
      .fork()
      .execute(`update webhooks.endpoints set events = events || '{discount.created}'::text[] where id = ?`, [
        legacy.body.id,
      ]);

    const discount = await api('POST', '/v1/discounts/', {
      name: 'Launch',
      type: 'percentage',
      basis_points: 1000,
      duration: 'once',
    });
    expect(discount.status).toBe(201);
    const customer = await api('POST', '/v1/customers/', { email: `versions-${Date.now()}@example.com` });
    expect(customer.status).toBe(201);

    await receiver.until(() => receiver.on('/v2026-10').length >= 2, 'two versioned deliveries');
    await receiver.until(() => receiver.on('/legacy').length >= 1, 'one legacy delivery');
    const received = receiver.on('/v2026-10');
    const parsed = await Promise.all(
      received.map(hook => webhooks.validateEvent(hook.body, headersOf(hook), versioned.body.secret)),
    );
    expect(parsed.map(e => [e.type, e.api_version])).toEqual([
      ['discount.created', '2026-10'],
      ['customer.created', '2026-10'],
    ]);
    expect(parsed[1]).toMatchObject({ data: { id: customer.body.id } });
    expect(Object.keys(JSON.parse(received[0].body))).toEqual(['type', 'timestamp', 'api_version', 'data']);

    // The legacy endpoint: the customer only (ingestion ran both events before the customer's was sent).
    const legacyHooks = receiver.on('/legacy');
    expect(legacyHooks.map(h => JSON.parse(h.body).type)).toEqual(['customer.created']);
    expect(Object.keys(JSON.parse(legacyHooks[0].body))).toEqual(['type', 'timestamp', 'data']);
    expect(validateEvent(legacyHooks[0].body, headersOf(legacyHooks[0]), legacy.body.secret).type).toBe(
      'customer.created',
    );

    // The delivery log shows the bytes that were sent, per endpoint (recorded just after the answer: up to 60 s).
    const deliveries = () => api('GET', `/v1/webhooks/deliveries?endpoint_id=${versioned.body.id}`);
    let log!: Awaited<ReturnType<typeof deliveries>>; // `until` looks at least once
    await until(async () => (log = await deliveries()).body.items.length >= 2, 60_000, 100);
    expect(log.body.items.map((d: any) => d.webhook_event.payload).sort()).toEqual(received.map(h => h.body).sort());
  });
});
