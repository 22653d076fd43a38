import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { webhooks } from '@polar-sh/sdk-1/2026-10';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { call, createTenant, startTestStack, TEST_SECRET, type TestStack } from '../support/stack.js';

/**
 * `cli listen` as an operator runs it (the built cli/main.js in a child process, on the server's
 * databases): it forwards the organization's new events to a local URL, signed with the secret it prints,
 * each once and in the order the organization's endpoints receive them, also when sales are confirmed
 * at once and when two hand-overs of events overlap.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let buildDir: string;
let stack: TestStack;
let receiver: WebhookReceiver;
const CONCURRENT_CHECKOUTS = 8;
const ENDPOINT_EVENTS = ['checkout.created', 'checkout.updated', 'customer.created', 'order.created', 'order.paid'];

beforeAll(async () => {
  const out = path.join('.build', `cli-listen-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', out], { cwd: ROOT, stdio: 'pipe' });
  buildDir = existsSync(path.join(ROOT, out, 'cli', 'main.js')) ? path.join(ROOT, out) : path.join(ROOT, 'dist');
  stack = await startTestStack('cli_listen');
  receiver = await new WebhookReceiver().start();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.close();
  if (buildDir && !buildDir.endsWith(`${path.sep}dist`)) await rm(buildDir, { recursive: true, force: true });
});

/** Starts `cli listen` on the sandbox for one organization; resolves once it printed Ready. */
async function startListen(organizationId: string, forwardTo: string, extra: string[] = []) {
  const urls = {
    production: (stack.production.environment.webhooks.orm.config.get('clientUrl') as string) ?? '',
    sandbox: (stack.sandbox.environment.webhooks.orm.config.get('clientUrl') as string) ?? '',
  };
  const child = spawn(
    process.execPath,
    [
      path.join(buildDir, 'cli', 'main.js'),
      'listen',
      '--forward-to',
      forwardTo,
      '--organization',
      organizationId,
      ...extra,
      '--env',
      'sandbox',
      '--json',
    ],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'silent',
        DATABASE_URL: urls.production,
        SANDBOX_DATABASE_URL: urls.sandbox,
        SECRET: TEST_SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', d => (output.stdout += d));
  child.stderr.on('data', d => (output.stderr += d));
  const exited = new Promise<number | null>(resolve => child.on('close', resolve));
  for (let i = 0; i < 200 && !output.stdout.includes('Ready'); i++) await new Promise(r => setTimeout(r, 100));
  expect([output.stdout, output.stderr]).toEqual([expect.stringContaining('Ready (sandbox)'), expect.anything()]);
  const secret = /signing secret (whsec_\S+)/.exec(output.stdout)![1];
  return { child, output, exited, secret };
}

/** Waits (bounded) until the relay has handed every outbox row of the organization to the webhooks subgraph. */
async function handedOver(organizationId: string): Promise<void> {
  const billing = stack.sandbox.environment.billing.orm.em;
  for (let i = 0; i < 300; i++) {
    const [row] = await billing
      .fork()
      .execute<{ pending: number }[]>(
        'select count(*)::int as pending from billing.events where organization_id = ? and dispatched_at is null',
        [organizationId],
      );
    if (row.pending === 0) return;
    await new Promise(r => setTimeout(r, 100));
  }
  throw new Error('the outbox was not handed over');
}

it('forwards new events of one organization, signed, and stops after --max-events', async () => {
  const env = stack.sandbox;
  const tenant = await createTenant(env);
  const { output, exited, secret } = await startListen(tenant.organizationId, receiver.url('/local'), [
    '--max-events',
    '2',
  ]);

  for (const name of ['One', 'Two']) {
    const res = await call(env.baseUrl, 'POST', '/v1/customers/', {
      token: tenant.oat,
      body: { email: `${name.toLowerCase()}-${Date.now()}@example.com`, name },
    });
    expect(res.status).toBe(201);
  }
  expect(await exited).toBe(0);
  const forwarded = receiver.on('/local');
  expect(forwarded.map(r => JSON.parse(r.body).data.name)).toEqual(['One', 'Two']);
  for (const r of forwarded) {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    expect(validateEvent(r.body, r.headers as Record<string, string>, secret).type).toBe('customer.created');
  }
  expect(JSON.parse(output.stdout.trim().split('\n').pop()!)).toMatchObject({ forwarded: 2, secret });
}, 60_000);

it('relays events as an endpoint of --api-version sees them; without it, as an endpoint without a version', async () => {
  const env = stack.sandbox;
  const tenant = await createTenant(env);
  const versioned = await startListen(tenant.organizationId, receiver.url('/listen-2026-10'), [
    '--api-version',
    '2026-10',
    '--max-events',
    '2',
  ]);
  const unversioned = await startListen(tenant.organizationId, receiver.url('/listen-unversioned'), [
    '--max-events',
    '1',
  ]);
  const discount = await call(env.baseUrl, 'POST', '/v1/discounts/', {
    token: tenant.oat,
    body: { name: 'Launch', type: 'percentage', basis_points: 1000, duration: 'once' },
  });
  expect(discount.status).toBe(201);
  const customer = await call(env.baseUrl, 'POST', '/v1/customers/', {
    token: tenant.oat,
    body: { email: `listen-version-${Date.now()}@example.com` },
  });
  expect(customer.status).toBe(201);
  expect([await versioned.exited, await unversioned.exited]).toEqual([0, 0]);

  const seen = await Promise.all(
    receiver
      .on('/listen-2026-10')
      .map(r => webhooks.validateEvent(r.body, r.headers as Record<string, string>, versioned.secret)),
  );
  expect(seen.map(e => [e.type, e.api_version])).toEqual([
    ['discount.created', '2026-10'],
    ['customer.created', '2026-10'],
  ]);
  // 0.48.1 throws on discount.* : the unversioned relay skips it.
  const [only] = receiver.on('/listen-unversioned');
  expect(validateEvent(only.body, only.headers as Record<string, string>, unversioned.secret).type).toBe(
    'customer.created',
  );
  expect(receiver.on('/listen-unversioned')).toHaveLength(1);
}, 60_000);

it('forwards each event of checkouts confirmed at once exactly once, in the order endpoints receive them', async () => {
  const env = stack.sandbox;
  const tenant = await createTenant(env);
  const api = (method: string, route: string, body?: unknown) =>
    call(env.baseUrl, method, route, { token: tenant.oat, body });
  const product = await api('POST', '/v1/products/', {
    name: 'Concurrent',
    prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
  });
  expect(product.status).toBe(201);
  // A real endpoint: its deliveries are the order listen must keep.
  const endpoint = await api('POST', '/v1/webhooks/endpoints', {
    url: receiver.url('/endpoint'),
    format: 'raw',
    events: ENDPOINT_EVENTS,
  });
  expect(endpoint.status).toBe(201);
  // Listen forwards what is ingested after it starts: the product's event is in before.
  await handedOver(tenant.organizationId);
  const [start] = await env.environment.webhooks.orm.em
    .fork()
    .execute<{ position: string }[]>(
      'select coalesce(max(position), 0)::text as position from webhooks.events where organization_id = ?',
      [tenant.organizationId],
    );
  const { child, output, exited, secret } = await startListen(tenant.organizationId, receiver.url('/concurrent'));

  const checkouts = await Promise.all(
    Array.from({ length: CONCURRENT_CHECKOUTS }, async (_, i) => {
      const created = await api('POST', '/v1/checkouts/', {
        products: [product.body.id],
        customer_email: `buyer-${i}-${Date.now()}@example.com`,
      });
      expect(created.status).toBe(201);
      return created.body;
    }),
  );
  // Positions gain a digit inside the burst (as they do at 10, 100, 1000… in every database), so a
  // read returns events on both sides of it: the first sale's events are ingested in one transaction.
  await handedOver(tenant.organizationId);
  await env.environment.webhooks.orm.em.fork().execute(
    `select setval(pg_get_serial_sequence('webhooks.events', 'position'),
                     power(10, length((select max(position) from webhooks.events)::text) + 1)::bigint - 2)`,
  );
  const confirmed = await Promise.all(
    checkouts.map(c =>
      call(env.baseUrl, 'POST', `/v1/checkouts/client/${c.client_secret}/confirm`, {
        body: { confirmation_token_id: 'pm_card_visa' },
      }),
    ),
  );
  expect(confirmed.map(r => r.status)).toEqual(checkouts.map(() => 200));

  // Once the outbox is handed over, a last event: listen forwards in order, so when it has arrived
  // everything before it has too.
  await handedOver(tenant.organizationId);
  const last = await api('POST', '/v1/customers/', { email: `last-${Date.now()}@example.com`, name: 'Last' });
  expect(last.status).toBe(201);
  await receiver.until(
    () => receiver.on('/concurrent').some(r => JSON.parse(r.body).data.id === last.body.id),
    'the last event forwarded',
  );
  // Ctrl-C: the CLI's interrupt exit.
  child.kill('SIGINT');
  expect(await exited).toBe(130);

  const recorded = await env.environment.webhooks.orm.em
    .fork()
    .execute<{ id: string; type: string }[]>(
      'select id, type from webhooks.events where organization_id = ? and position > ?::bigint order by position',
      [tenant.organizationId, start.position],
    );
  const forwarded = receiver.on('/concurrent');
  const ids = forwarded.map(r => r.headers['webhook-id']);
  expect(new Set(ids).size).toBe(ids.length);
  expect(forwarded.map(r => [r.headers['webhook-id'], JSON.parse(r.body).type])).toEqual(
    recorded.map(e => [e.id, e.type]),
  );
  for (const r of forwarded)
    expect(new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).toBeTruthy();
  // Per checkout's order: created before paid.
  const orderEvents = forwarded.map(r => JSON.parse(r.body)).filter(e => e.type.startsWith('order.'));
  const orders = new Set(orderEvents.map(e => e.data.id));
  expect(orders.size).toBe(CONCURRENT_CHECKOUTS);
  for (const order of orders)
    expect(orderEvents.filter(e => e.data.id === order).map(e => e.type)).toEqual([
      'order.created',
      'order.updated',
      'order.paid',
    ]);
  expect(output.stdout.split('\n').filter(line => line.startsWith('--> '))).toHaveLength(recorded.length);
  // The endpoint got the same bytes in the same order (of the types it subscribed to).
  const subscribed = forwarded.filter(r => ENDPOINT_EVENTS.includes(JSON.parse(r.body).type)).map(r => r.body);
  await receiver.until(() => receiver.on('/endpoint').length >= subscribed.length, 'the endpoint deliveries');
  expect(receiver.on('/endpoint').map(r => r.body)).toEqual(subscribed);
}, 120_000);

it('never passes an event still being ingested: a batch that commits late is forwarded, before what followed it', async () => {
  // Two hand-overs at once, as when a relay's call timed out while its batch was still being stored
  // and the relay's next batch arrives. The first is held inside its transaction (after drawing its
  // position) by a lock on its endpoint's row, which its queued message must reference.
  const env = stack.sandbox;
  const tenant = await createTenant(env);
  const endpoint = await call(env.baseUrl, 'POST', '/v1/webhooks/endpoints', {
    token: tenant.oat,
    body: { url: receiver.url('/overlap-endpoint'), format: 'raw', events: ['customer.updated'] },
  });
  expect(endpoint.status).toBe(201);
  const { child, exited } = await startListen(tenant.organizationId, receiver.url('/overlap'));
  const source = (type: string, name: string) => ({
    id: randomUUID(),
    organizationId: tenant.organizationId,
    type,
    payload: { id: randomUUID(), name },
    createdAt: new Date().toISOString(),
  });
  const forwardedNames = () => receiver.on('/overlap').map(r => JSON.parse(r.body).data.name);
  const webhooks = env.environment.webhooks;
  const holder = new pg.Client({ connectionString: webhooks.orm.config.get('clientUrl') as string });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select id from webhooks.endpoints where id = $1 for update', [endpoint.body.id]);
    const first = webhooks.ingest.ingest([source('customer.updated', 'first')]);
    const waiting = async () => {
      // The holder is inside its transaction, where PostgreSQL serves pg_stat_activity from a snapshot
      // taken at its first read: cleared, each read sees who waits now (a busy machine made the first
      // read come before the first hand-over reached the lock, and every later read repeated it).
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return rows[0].n;
    };
    for (let i = 0; i < 300 && (await waiting()) < 1; i++) await new Promise(r => setTimeout(r, 50));
    expect(await waiting()).toBeGreaterThanOrEqual(1);
    let secondDone = false;
    const second = webhooks.ingest.ingest([source('customer.created', 'second')]).finally(() => {
      secondDone = true;
    });
    // Either the second hand-over waits for the first, or it committed and listen has seen it. The
    // first waits on the held row meanwhile, so the hold ends well within the lock timeout (10 s): on a
    // loaded machine the loop's deadline, not its count, bounds it.
    const holdUntil = Date.now() + 4_000;
    while (Date.now() < holdUntil) {
      if ((await waiting()) >= 2 || (secondDone && forwardedNames().includes('second'))) break;
      await new Promise(r => setTimeout(r, 50));
    }
    await holder.query('commit');
    expect(await Promise.all([first, second])).toEqual([{ ingested: 1 }, { ingested: 1 }]);
  } finally {
    await holder.end();
  }
  await webhooks.ingest.ingest([source('customer.created', 'third')]);
  await receiver.until(() => forwardedNames().includes('third'), 'the third event forwarded');
  child.kill('SIGINT');
  expect(await exited).toBe(130);

  const recorded = await webhooks.orm.em
    .fork()
    .execute<{ id: string }[]>('select id from webhooks.events where organization_id = ? order by position', [
      tenant.organizationId,
    ]);
  expect(forwardedNames()).toEqual(['first', 'second', 'third']);
  expect(receiver.on('/overlap').map(r => r.headers['webhook-id'])).toEqual(recorded.map(e => e.id));
}, 60_000);
