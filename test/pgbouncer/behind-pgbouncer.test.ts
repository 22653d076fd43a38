import { pino } from 'pino';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { systemClock } from '../../kit/clock.js';
import { type EnvironmentName, loadConfig } from '../../kit/config.js';
import { listenConnectionPid } from '../../kit/database/database-listeners.js';
import { openEnvironmentDatabases } from '../../kit/database/environment-databases.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { createMigratedTestDatabase, createTestDatabase, testServerUrl } from '../support/database.js';
import { query } from '../support/embedded-server.js';
import { call, createTenant, type RunningEnvironment, TEST_SECRET, type Tenant } from '../support/stack.js';
import { sellAndRenewOnce } from '../support/monthly-sale.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { keepIdleSocketsLonger } from '../../kit/http/idle-sockets.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pgbouncerInstalled, type RunningPgBouncer, startPgBouncer } from './pgbouncer.js';

/**
 * The service behind PgBouncer in transaction pooling mode (docs/pgbouncer.md), started by the test in
 * front of the test PostgreSQL with a pool of 4 server connections: both environments as `npm start`
 * builds them, DATABASE_URL and SANDBOX_DATABASE_URL through PgBouncer, DATABASE_DIRECT_URL and
 * SANDBOX_DATABASE_DIRECT_URL to PostgreSQL. What holds session state would break here: a named
 * prepared statement executed on another server connection, a LISTEN whose session serves others,
 * settings sent at connection start (which PgBouncer refuses). The sale, its webhooks (outbox relay and
 * delivery worker, both woken by NOTIFY), the renewal of a sandbox clock advance (locks, jobs) and an
 * idempotency key all run through it; production's empty database is migrated through it at start.
 */
jest.setTimeout(180_000);

const installed = pgbouncerInstalled();
if (!installed) {
  // CI installs it (.ci/run); a machine without Debian's pgbouncer package skips, and says so.
  console.warn('SKIPPED test/pgbouncer: no pgbouncer binary (apt-get install -y pgbouncer, or set PGBOUNCER)');
}
const maybe = installed ? it : it.skip;

let bouncer: RunningPgBouncer | undefined;
const started: { env: RunningEnvironment; server: Server; drop: () => Promise<void> }[] = [];
let sandbox: RunningEnvironment;
let tenant: Tenant;
let receiver: WebhookReceiver;
let pooledSandboxUrl: string;
let directProductionUrl: string;
/** What the stack logged at level error or above: a failure retried in the background shows only here. */
const errors: string[] = [];
const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });

beforeAll(async () => {
  if (!installed) return;
  bouncer = await startPgBouncer(testServerUrl());
  const direct = {
    // Empty: its schemas are migrated at start, through PgBouncer, under the lock taken on the direct URL.
    production: await createTestDatabase('pgbouncer_production'),
    sandbox: await createMigratedTestDatabase('pgbouncer_sandbox'),
  };
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RENEWAL_INTERVAL_MS: '0',
    DATABASE_URL: bouncer.pooled(direct.production.url),
    SANDBOX_DATABASE_URL: bouncer.pooled(direct.sandbox.url),
    DATABASE_DIRECT_URL: direct.production.url,
    SANDBOX_DATABASE_DIRECT_URL: direct.sandbox.url,
  });
  const secrets = { secret: TEST_SECRET, internalKey: TEST_SECRET, embeddedDatabasePassword: '' };
  const databases = await openEnvironmentDatabases(config, secrets, 'server');
  pooledSandboxUrl = databases.urls.sandbox;
  directProductionUrl = direct.production.url;
  for (const name of ['production', 'sandbox'] as EnvironmentName[]) {
    const environment: Environment = await startEnvironment({
      name,
      config,
      databaseUrl: databases.urls[name],
      secret: TEST_SECRET,
      clock: systemClock,
      logger,
    });
    const server = await new Promise<Server>(resolve => {
      const s = keepIdleSocketsLonger(createServer(environment.app)).listen(0, '127.0.0.1', () => resolve(s));
    });
    const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET);
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    started.push({ env: { environment, baseUrl, admin }, server, drop: direct[name].drop });
  }
  sandbox = started[1].env;
  tenant = await createTenant(sandbox);
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  for (const { env, server, drop } of started) {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
    await env.environment.close();
    await drop();
  }
  await receiver?.close();
  await bouncer?.stop();
});

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(sandbox.baseUrl, method, path, { token: tenant.oat, body, headers });

/** A statement straight to PostgreSQL (the test server's own database unless `url`), not through PgBouncer. */
const direct = <T>(sql: string, values: unknown[] = [], url = testServerUrl()) => query<T>(url, sql, values);

maybe('migrated the empty database through PgBouncer', async () => {
  const [row] = await direct<{ schemas: string[] }>(
    `select array_agg(nspname::text order by nspname) as schemas from pg_namespace where nspname in ('billing', 'identity', 'webhooks')`,
    [],
    directProductionUrl,
  );
  expect(row.schemas).toEqual(['billing', 'identity', 'webhooks']);
});

maybe('LISTENs on the direct connection, not through PgBouncer', async () => {
  // Through PgBouncer the backend pid a client sees is PgBouncer's invention; the listen connection's is a real one.
  const pid = listenConnectionPid(pooledSandboxUrl);
  expect(pid).not.toBeNull();
  const [backend] = await direct<{ query: string }>('select query from pg_stat_activity where pid = $1', [pid]);
  expect(backend?.query).toMatch(/^listen /);
});

maybe(
  'sells, delivers the webhooks, renews on a clock advance and keeps an idempotency key, all through PgBouncer',
  async () => {
    const endpoint = await api('POST', '/v1/webhooks/endpoints', {
      url: receiver.url('/merchant'),
      format: 'raw',
      events: ['order.paid', 'subscription.created', 'subscription.updated'],
    });
    expect(endpoint.status).toBe(201);

    // An idempotency key: the same POST twice creates one product, answered the same both times.
    const body = {
      name: 'Pro',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1500, price_currency: 'usd' }],
    };
    const product = await api('POST', '/v1/products/', body, { 'idempotency-key': 'pgbouncer-product' });
    expect(product.status).toBe(201);
    const again = await api('POST', '/v1/products/', body, { 'idempotency-key': 'pgbouncer-product' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(product.body.id);
    expect((await api('GET', '/v1/products/?limit=10')).body.items).toHaveLength(1);

    // Many reads at once: each list runs prepared the same way on whichever server connection it gets.
    const lists = await Promise.all(Array.from({ length: 24 }, () => api('GET', '/v1/products/?limit=10')));
    expect(lists.map(r => r.status)).toEqual(lists.map(() => 200));

    // The sale and its renewal.
    const { orders } = await sellAndRenewOnce(sandbox.baseUrl, api, product.body.id, 1500);

    // The webhooks of both orders, each once.
    const paid = () => receiver.on('/merchant').filter(r => JSON.parse(r.body).type === 'order.paid');
    await receiver.until(() => paid().length >= 2, 'two order.paid webhooks');
    const orderIds = paid().map(r => JSON.parse(r.body).data.id);
    expect(new Set(orderIds)).toEqual(new Set(orders.map(o => o.id)));
    expect(orderIds).toHaveLength(2);
    expect(errors).toEqual([]);
  },
);
