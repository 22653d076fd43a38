import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../kit/config.js';
import { type MetricsServer, startMetricsServer } from '../../kit/metrics/metrics-server.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * docs/observability.md: the Prometheus endpoint on its own port. Both environments of an embedded
 * stack are used (requests with ids, e-mails and tokens in their paths and queries, a checkout whose
 * fulfilment is a job, a webhook delivered, a renewal in the sandbox by its clock), then `/metrics` is
 * scraped: the counters moved with the right labels, and no id, e-mail or token is in any label.
 */
jest.setTimeout(120_000);

let stack: TestStack;
let metrics: MetricsServer;
let receiver: WebhookReceiver;
let owner: Tenant;
const secretEmail = `someone-${randomUUID().slice(0, 8)}@example.com`;
const strangerId = randomUUID();

beforeAll(async () => {
  stack = await sharedTestStack();
  metrics = (await startMetricsServer({ METRICS_PORT: 0, METRICS_HOST: '127.0.0.1' }))!;
  receiver = await new WebhookReceiver(() => 200).start();
  owner = await createTenant(stack.sandbox);
}, 120_000);
afterAll(async () => {
  await metrics?.close();
  await receiver?.close();
});

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

/** The value of the sample whose name and labels are all in `line` (0: absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find(l => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** Scrapes until `holds`, up to a minute (work that ends after the answer a test waited for, e.g. a delivery's count). */
async function scrapeUntil(holds: (text: string) => boolean): Promise<string> {
  let text = '';
  await until(async () => holds((text = await scrape())), 60_000, 100);
  return text;
}

describe('the metrics endpoint', () => {
  it('is off by default: no METRICS_PORT, no listener', async () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(loadConfig({}).METRICS_HOST).toBe('127.0.0.1');
    expect(await startMetricsServer(loadConfig({}))).toBeNull();
  });

  it('is not on the public port, and answers only GET /metrics on its own', async () => {
    for (const env of [stack.production, stack.sandbox])
      expect((await call(env.baseUrl, 'GET', '/metrics')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metrics.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('counts requests, jobs, deliveries, charges and renewals with their labels, and no id, e-mail or token', async () => {
    const base = stack.sandbox.baseUrl;
    const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
    // The counters are the process's, which earlier files of this worker may have moved: what this test's
    // requests added is the difference from this scrape.
    const before = await scrape();
    const added = (text: string, name: string, labels: Record<string, string>) =>
      sample(text, name, labels) - sample(before, name, labels);
    // Ids, e-mails and tokens in paths and queries, matched and unmatched.
    expect((await api('GET', `/v1/customers/${strangerId}`)).status).toBe(404);
    expect((await api('GET', `/v1/customers/?email=${encodeURIComponent(secretEmail)}`)).status).toBe(200);
    expect((await api('GET', `/v1/no-such-thing/${secretEmail}/${owner.oat}?token=${owner.pat}`)).status).toBe(404);
    expect((await call(stack.production.baseUrl, 'GET', `/v1/organizations/${strangerId}`)).status).toBe(401);

    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/hook'),
      format: 'raw',
      events: ['subscription.created'],
    });
    expect(endpoint.status).toBe(201);
    const product = await api('POST', '/v1/products/', {
      recurring_interval: 'month',
      name: 'Plan',
      prices: [{ amount_type: 'fixed', price_amount: 1000 }],
    });
    expect(product.status).toBe(201);
    const checkout = await api('POST', '/v1/checkouts/', { customer_email: secretEmail, products: [product.body.id] });
    expect(checkout.status).toBe(201);
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    await receiver.until(() => receiver.on('/hook').length > 0, 'subscription.created delivered');
    const list = await api('GET', '/v1/subscriptions/?limit=10');
    const periodEnd = new Date(list.body.items[0].current_period_end);
    const advanced = await api('POST', '/v1/sandbox/clock/advance', {
      to: new Date(periodEnd.getTime() + 60_000).toISOString(),
    });
    expect(advanced.status).toBe(200);

    const sandbox = { environment: 'sandbox' };
    const text = await scrapeUntil(
      t => added(t, 'polar_webhook_deliveries_total', { ...sandbox, outcome: 'succeeded' }) > 0,
    );

    // HTTP by route template and status.
    const customer = {
      ...sandbox,
      endpoint: '/v1/customers/:id',
      method: 'GET',
      status_code: '404',
      status_class: '4xx',
    };
    expect(added(text, 'polar_http_request_total', customer)).toBe(1);
    expect(
      added(text, 'polar_http_request_total', { ...sandbox, endpoint: '/v1/customers/', status_code: '200' }),
    ).toBe(1);
    expect(
      added(text, 'polar_http_request_total', { ...sandbox, endpoint: 'unmatched', status_code: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      added(text, 'polar_http_request_total', {
        environment: 'production',
        endpoint: '/v1/organizations/:id',
        status_code: '401',
      }),
    ).toBe(1);
    expect(
      added(text, 'polar_http_request_duration_seconds_count', { ...sandbox, endpoint: '/v1/customers/:id' }),
    ).toBe(1);
    expect(
      added(text, 'polar_http_request_duration_seconds_bucket', {
        ...sandbox,
        endpoint: '/v1/customers/:id',
        le: '+Inf',
      }),
    ).toBe(1);
    // The checkout's fulfilment ran as a job; its charge and the renewal's succeeded.
    const job = { ...sandbox, queue: 'billing.jobs', status: 'success' };
    expect(added(text, 'polar_task_executions_total', job)).toBeGreaterThanOrEqual(1);
    expect(
      added(text, 'polar_task_duration_seconds_count', { ...sandbox, queue: 'billing.jobs' }),
    ).toBeGreaterThanOrEqual(1);
    expect(added(text, 'polar_charges_total', { ...sandbox, outcome: 'succeeded' })).toBeGreaterThanOrEqual(2);
    expect(added(text, 'polar_renewals_total', { ...sandbox, kind: 'cycle', outcome: 'done' })).toBe(1);
    expect(added(text, 'polar_webhook_deliveries_total', { ...sandbox, outcome: 'succeeded' })).toBeGreaterThanOrEqual(
      1,
    );
    // Read on the scrape: queues, pools; and Node's own.
    for (const queue of ['billing.jobs', 'billing.outbox', 'webhooks.delivery'])
      expect(text).toMatch(
        new RegExp(`polar_queue_size\\{environment="sandbox",queue="${queue.replace('.', '\\.')}"\\} \\d+`),
      );
    expect(text).toMatch(
      /polar_queue_oldest_message_age_seconds\{environment="production",queue="billing\.jobs"\} [\d.]+/,
    );
    expect(
      sample(text, 'polar_db_pool_connections', { environment: 'production', pool: 'billing', state: 'max' }),
    ).toBeGreaterThan(0);
    expect(text).toMatch(/polar_db_pool_waiting_requests\{environment="sandbox",pool="identity"\} \d+/);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');

    // No label carries what the requests carried.
    for (const secret of [
      strangerId,
      secretEmail,
      encodeURIComponent(secretEmail),
      owner.oat,
      owner.pat,
      owner.organizationId,
    ])
      expect(text).not.toContain(secret);
    for (const id of [checkout.body.id, product.body.id, endpoint.body.id, list.body.items[0].id])
      expect(text).not.toContain(id);
  });
});
