import { validateEvent } from '@polar-sh/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  call,
  createTenant,
  startTestStack,
  type RunningEnvironment,
  type Tenant,
  type TestStack,
} from '../support/stack.js';

/**
 * Webhooks end to end (docs/polar/webhooks.md, docs/reliability.md#checked-cases): the REST API → billing's outbox → the relay →
 * webhooks ingestion → the delivery worker → a receiver on loopback, all real. The sandbox allows loopback
 * targets; production refuses them. Retries are made fast (WEBHOOK_RETRY_BASE_MS) so the disable rule
 * can be reached.
 */
let stack: TestStack;
let sandbox: RunningEnvironment;
let tenant: Tenant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startTestStack('webhooks_e2e', undefined, { WEBHOOK_RETRY_BASE_MS: '2', WEBHOOK_RETRY_MAX_MS: '10' });
  sandbox = stack.sandbox;
  tenant = await createTenant(sandbox);
  receiver = await new WebhookReceiver().start();
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

const api = (method: string, path: string, body?: unknown, env = sandbox, token = tenant.oat) =>
  call(env.baseUrl, method, path, { token, body });

async function createEndpoint(path: string, events: string[]) {
  const res = await api('POST', '/v1/webhooks/endpoints', { url: receiver.url(path), format: 'raw', events });
  expect(res.status).toBe(201);
  return res.body;
}

describe('delivery of billing events', () => {
  let endpoint: any;

  it('delivers customer, subscription and cancellation events in order, verifiable by both libraries', async () => {
    endpoint = await createEndpoint('/ok', [
      'customer.created',
      'subscription.created',
      'subscription.updated',
      'subscription.canceled',
    ]);
    expect(endpoint).toMatchObject({ format: 'raw', enabled: true, organization_id: tenant.organizationId });
    expect(endpoint.secret).toMatch(/^whsec_[0-9A-Za-z]{43}$/);

    const customer = await api('POST', '/v1/customers/', { email: `buyer-${Date.now()}@example.com` });
    expect(customer.status).toBe(201);
    const product = await api('POST', '/v1/products/', {
      name: 'Free monthly',
      recurring_interval: 'month',
      prices: [{ amount_type: 'free' }],
    });
    expect(product.status).toBe(201);
    const subscription = await api('POST', '/v1/subscriptions/', {
      product_id: product.body.id,
      customer_id: customer.body.id,
    });
    expect(subscription.status).toBe(201);
    const canceled = await api('PATCH', `/v1/subscriptions/${subscription.body.id}`, { cancel_at_period_end: true });
    expect(canceled.status).toBe(200);

    await receiver.until(() => receiver.on('/ok').length >= 4, 'four webhooks');
    const received = receiver.on('/ok');
    expect(received.map(r => JSON.parse(r.body).type)).toEqual([
      'customer.created',
      'subscription.created',
      'subscription.updated',
      'subscription.canceled',
    ]);
    expect(JSON.parse(received[0].body).data.id).toBe(customer.body.id);
    expect(JSON.parse(received[3].body).data).toMatchObject({ id: subscription.body.id, cancel_at_period_end: true });

    for (const r of received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toBe('polar.sh webhooks');
      const headers = {
        'webhook-id': r.headers['webhook-id'] as string,
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      };
      // The vanilla Standard Webhooks library with the secret exactly as shown…
      expect(new Webhook(endpoint.secret).verify(r.body, headers)).toMatchObject({ type: JSON.parse(r.body).type });
      // …with base64(secret), as Polar's docs tell merchants…
      new Webhook(Buffer.from(endpoint.secret).toString('base64')).verify(r.body, headers);
      // …and the Polar SDK's verifier (which also parses the payload with its schemas).
      const event = validateEvent(r.body, headers, endpoint.secret);
      expect(event.type).toBe(JSON.parse(r.body).type);
      // A wrong secret is refused.
      expect(() => new Webhook(`whsec_${'A'.repeat(43)}`).verify(r.body, headers)).toThrow();
    }
    expect(new Set(received.map(r => r.headers['webhook-id'])).size).toBe(4);

    // The relay marked billing's outbox rows handed over (each was ingested exactly once).
    const billing = sandbox.environment.billing.orm.em.fork();
    const undispatched = async () =>
      Number((await billing.execute('select count(*) as n from billing.events where dispatched_at is null'))[0].n);
    for (let i = 0; i < 50 && (await undispatched()) > 0; i++) await new Promise(r => setTimeout(r, 100));
    expect(await undispatched()).toBe(0);
    const [ingested] = await sandbox.environment.webhooks.orm.em
      .fork()
      .execute(
        "select count(*) as n, count(distinct source_event_id) as d from webhooks.events where type like 'subscription.%'",
      );
    expect(ingested).toEqual({ n: '3', d: '3' });
  });

  it('redelivers the same bytes with the same webhook-id', async () => {
    const first = receiver.on('/ok')[0];
    const id = first.headers['webhook-id'] as string;
    const res = await api('POST', `/v1/webhooks/events/${id}/redeliver`);
    expect(res.status).toBe(202);
    await receiver.until(
      () => receiver.on('/ok').filter(r => r.headers['webhook-id'] === id).length === 2,
      'redelivery',
    );
    const again = receiver.on('/ok').filter(r => r.headers['webhook-id'] === id)[1];
    expect(again.body).toBe(first.body);
    validateEvent(again.body, again.headers as Record<string, string>, endpoint.secret);

    expect((await api('POST', `/v1/webhooks/events/${crypto.randomUUID()}/redeliver`)).status).toBe(404);
  });

  it('lists the delivery attempts with their event', async () => {
    // The worker records an attempt once the receiver has answered: the redelivery just seen by the
    // receiver may still be on its way into the table.
    const list = () => api('GET', `/v1/webhooks/deliveries?endpoint_id=${endpoint.id}&limit=100`);
    let res = await list();
    for (let i = 0; i < 50 && res.body.pagination?.total_count < 5; i++) {
      await new Promise(r => setTimeout(r, 100));
      res = await list();
    }
    expect(res.status).toBe(200);
    expect(res.body.pagination.total_count).toBe(5);
    expect(res.body.items[0]).toMatchObject({
      succeeded: true,
      http_code: 200,
      response: 'ok',
      webhook_event: { succeeded: true, skipped: false, is_archived: false },
    });
    const types = res.body.items.map((d: any) => d.webhook_event.type);
    expect(types).toContain('subscription.canceled');
    const filtered = await api('GET', `/v1/webhooks/deliveries?event_type=subscription.canceled&http_code_class=2xx`);
    expect(filtered.body.items.map((d: any) => d.webhook_event.type)).toEqual(['subscription.canceled']);
  });

  it('over GraphQL refuses a code class or event type the REST route refuses, with the same 422 items', async () => {
    const gql = (query: string) => api('POST', '/graphql', { query });
    const rest = await api('GET', '/v1/webhooks/deliveries?http_code_class=x');
    expect(rest.status).toBe(422);
    for (const httpCodeClass of ['x', '9xx', '2', '']) {
      const res = await gql(`{ webhookDeliveries(httpCodeClass: "${httpCodeClass}") { items { id } } }`);
      expect(res.body.data).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({
        code: 'PolarRequestValidationError',
        details: [{ ...rest.body.detail[0], input: httpCodeClass }],
      });
    }
    const types = await gql('{ webhookDeliveries(eventType: ["subscription.canceled", " ", "a,b"]) { items { id } } }');
    expect(types.body.errors[0].extensions.details).toEqual([
      { type: 'enum', loc: ['query', 'event_type', 1], msg: 'Input should be a webhook event type', input: ' ' },
      { type: 'enum', loc: ['query', 'event_type', 2], msg: 'Input should be a webhook event type', input: 'a,b' },
    ]);
    const redeliver = await gql('mutation { redeliverFailedWebhookEvents(eventType: ["nope"]) { count } }');
    expect(redeliver.body.errors[0].extensions.code).toBe('PolarRequestValidationError');
    const filtered = await gql(
      '{ webhookDeliveries(httpCodeClass: "2xx", eventType: ["subscription.canceled"]) { items { webhookEvent { type } } } }',
    );
    expect(filtered.body.data.webhookDeliveries.items).toEqual([{ webhookEvent: { type: 'subscription.canceled' } }]);
  });

  it('manages endpoints: get, update, reset the secret, delete; another organization sees none', async () => {
    const got = await api('GET', `/v1/webhooks/endpoints/${endpoint.id}`);
    expect(got.body).toEqual(endpoint);
    const updated = await api('PATCH', `/v1/webhooks/endpoints/${endpoint.id}`, { name: 'Main' });
    expect(updated.body).toMatchObject({ name: 'Main', secret: endpoint.secret });
    const reset = await api('PATCH', `/v1/webhooks/endpoints/${endpoint.id}/secret`);
    expect(reset.status).toBe(200);
    expect(reset.body.secret).not.toBe(endpoint.secret);
    const other = await createTenant(sandbox);
    expect((await api('GET', `/v1/webhooks/endpoints/${endpoint.id}`, undefined, sandbox, other.oat)).status).toBe(404);
    expect((await api('GET', '/v1/webhooks/endpoints', undefined, sandbox, other.oat)).body.items).toEqual([]);
    const list = await api('GET', '/v1/webhooks/endpoints');
    expect(list.body.items.map((e: any) => e.id)).toContain(endpoint.id);
    expect((await api('DELETE', `/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(204);
    expect((await api('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(404);
  });

  it('refuses the discord and slack formats and unknown event types', async () => {
    const discord = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/x'),
      format: 'discord',
      events: [],
    });
    expect(discord.status).toBe(422);
    expect(discord.body.detail[0]).toMatchObject({ loc: ['body', 'format'] });
    const unknown = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/x'),
      format: 'raw',
      events: ['nope'],
    });
    expect(unknown.status).toBe(422);
  });
});

describe('failure policy', () => {
  it('retries 10 times per event, then disables an endpoint whose last 10 events failed, and tells its owner', async () => {
    const endpoint = await createEndpoint('/fail', ['customer.created']);
    for (let i = 0; i < 10; i++)
      expect((await api('POST', '/v1/customers/', { email: `failing-${i}-${Date.now()}@example.com` })).status).toBe(
        201,
      );
    await receiver.until(() => receiver.on('/fail').length >= 100, '100 failed attempts', 60_000);
    let state: any;
    for (let i = 0; i < 100; i++) {
      state = (await api('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).body;
      if (!state.enabled) break;
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    expect(state.enabled).toBe(false);
    const perEvent = new Map<string, number>();
    for (const r of receiver.on('/fail'))
      perEvent.set(r.headers['webhook-id'] as string, (perEvent.get(r.headers['webhook-id'] as string) ?? 0) + 1);
    expect([...perEvent.values()]).toEqual(Array(10).fill(10));
    const notes = await sandbox.environment.webhooks.orm.em
      .fork()
      .execute('select kind from webhooks.notifications where endpoint_id = ?', [endpoint.id]);
    expect(notes).toEqual([{ kind: 'endpoint_disabled' }]);
    // Its owner is e-mailed through the outbox, once (the relay is woken by the disable; polled until it ran).
    const outbox = () =>
      sandbox.environment.billing.orm.em.fork().execute<{ to_address: string; subject: string; status: string }[]>(
        `select to_address, subject, status from billing.outgoing_emails
            where kind = 'webhook_endpoint_disabled' and organization_id = ?`,
        [tenant.organizationId],
      );
    for (let i = 0; i < 200 && (await outbox()).length === 0; i++) await new Promise(r => setTimeout(r, 50));
    expect(await outbox()).toEqual([
      expect.objectContaining({ to_address: tenant.email, subject: `Webhook endpoint disabled: ${endpoint.url}` }),
    ]);
    expect((await sandbox.environment.webhooks.notifications?.relayOnce())?.size).toBe(0);
    expect(await outbox()).toHaveLength(1);

    // A disabled endpoint gets nothing more.
    await api('POST', '/v1/customers/', { email: `after-${Date.now()}@example.com` });
    const failed = await api('GET', `/v1/webhooks/deliveries?endpoint_id=${endpoint.id}&succeeded=false&limit=1`);
    expect(failed.body.pagination.total_count).toBe(100);
    expect(failed.body.items[0]).toMatchObject({ http_code: 500, succeeded: false });
  });
});

describe('timeout', () => {
  it('aborts an attempt after 10 s and keeps delivering to other endpoints meanwhile', async () => {
    const other = await createTenant(sandbox);
    const endpointOf = async (path: string) =>
      (
        await api(
          'POST',
          '/v1/webhooks/endpoints',
          { url: receiver.url(path), format: 'raw', events: ['customer.created'] },
          sandbox,
          other.oat,
        )
      ).body;
    const hanging = await endpointOf('/hang');
    await endpointOf('/steady');
    for (let i = 0; i < 3; i++)
      await api('POST', '/v1/customers/', { email: `steady-${i}-${Date.now()}@example.com` }, sandbox, other.oat);
    // The steady endpoint gets all three while the first request to the hanging one is still open.
    await receiver.until(() => receiver.on('/steady').length === 3, 'three deliveries to /steady');
    expect(receiver.on('/hang')).toHaveLength(1);
    let attempts: any[] = [];
    for (let i = 0; i < 150 && attempts.length === 0; i++) {
      await new Promise(resolve => setTimeout(resolve, 100));
      attempts = (await api('GET', `/v1/webhooks/deliveries?endpoint_id=${hanging.id}`, undefined, sandbox, other.oat))
        .body.items;
    }
    expect(attempts[0]).toMatchObject({ succeeded: false, http_code: null, webhook_event: { succeeded: null } });
    const [row] = await sandbox.environment.webhooks.orm.em
      .fork()
      .execute('select error, duration_ms from webhooks.deliveries where endpoint_id = ?', [hanging.id]);
    expect(row.error).toBe('timed out after 10 s');
    expect(row.duration_ms).toBeGreaterThanOrEqual(10_000);
    // Its next event waited behind it (per-endpoint order): still only the first one was sent.
    expect(new Set(receiver.on('/hang').map(r => r.headers['webhook-id'])).size).toBe(1);
  }, 30_000);
});

describe('target policy', () => {
  it('refuses loopback and private targets in production, allows them in the sandbox', async () => {
    const owner = await createTenant(stack.production);
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest',
      'http://10.0.0.5/x',
    ]) {
      const res = await api(
        'POST',
        '/v1/webhooks/endpoints',
        { url, format: 'raw', events: [] },
        stack.production,
        owner.oat,
      );
      expect([url, res.status]).toEqual([url, 422]);
      expect(res.body.detail[0].loc).toEqual(['body', 'url']);
    }
    const publicUrl = await api(
      'POST',
      '/v1/webhooks/endpoints',
      { url: 'https://example.com/hook', format: 'raw', events: [] },
      stack.production,
      owner.oat,
    );
    expect(publicUrl.status).toBe(201);
    // Every IPv6 spelling that reaches loopback is refused on create and on PATCH, and the PATCH changes nothing.
    const embedded = ['[::127.0.0.1]', '[::ffff:0:7f00:1]', '[64:ff9b:1::7f00:1]', '[2002:7f00:1::]'];
    const production = (method: string, path: string, body: unknown) =>
      api(method, path, body, stack.production, owner.oat);
    for (const host of embedded) {
      const url = `http://${host}:9/hook`;
      const created = await production('POST', '/v1/webhooks/endpoints', { url, format: 'raw', events: [] });
      expect([url, created.status, created.body.detail?.[0]?.loc]).toEqual([url, 422, ['body', 'url']]);
      const patched = await production('PATCH', `/v1/webhooks/endpoints/${publicUrl.body.id}`, { url });
      expect([url, patched.status, patched.body.detail?.[0]?.loc]).toEqual([url, 422, ['body', 'url']]);
      expect(patched.body.detail[0]).toMatchObject({ type: 'url_parsing', input: url });
    }
    const after = await production('GET', `/v1/webhooks/endpoints/${publicUrl.body.id}`, undefined);
    expect(after.body.url).toBe('https://example.com/hook');
    const listed = await production('GET', '/v1/webhooks/endpoints?limit=100', undefined);
    expect(listed.body.items.map((e: { url: string }) => e.url)).toEqual(['https://example.com/hook']);
    const inSandbox = await api('POST', '/v1/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/hook',
      format: 'raw',
      events: [],
    });
    expect(inSandbox.status).toBe(201);
  });
});
