import pg from 'pg';
import { ensureDatabase } from '../../kit/database/databases.js';
import { declareReadUrl } from '../../kit/database/read-replicas.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';
import { type StreamingPair, startStreamingPair, whyNoReplica } from './streaming-replica.js';

/**
 * DATABASE_READ_URL (docs/read-replicas.md): the heavy reads (metrics, exports, the large lists) go to a
 * real streaming replica, every other read to the primary. With the replica's replay paused, a customer
 * created on the primary is missing from the list and the export (served by the replica) while its get
 * by id and the write's own answer show it (the primary); once replay resumes the list catches up. With
 * the replica down, the heavy reads answer 503 `ServiceUnavailable` at once, and the rest serves on.
 */
jest.setTimeout(180_000);
const skipReason = whyNoReplica();
if (skipReason) console.warn(`read-replica.test.ts skipped: ${skipReason}`);
const maybe = skipReason ? describe.skip : describe;

const DATABASES = { production: 'billing_production', sandbox: 'billing_sandbox' };
/** The replica pool's `application_name` (subgraphs/billing/orm.ts). */
const REPLICA_APPLICATION = 'billing-billing-read';
let pair: StreamingPair;
let stack: TestStack;
let base: string;
let tenant: Tenant;

beforeAll(async () => {
  if (skipReason) return;
  pair = await startStreamingPair();
  for (const name of Object.values(DATABASES)) await ensureDatabase(pair.primaryUrl('postgres'), name);
  for (const name of Object.values(DATABASES)) declareReadUrl(pair.primaryUrl(name), pair.replicaUrl(name));
  stack = await startTestStack(
    'read_replica',
    undefined,
    { DATABASE_ACQUIRE_TIMEOUT_MS: '2000' },
    { production: pair.primaryUrl(DATABASES.production), sandbox: pair.primaryUrl(DATABASES.sandbox) },
  );
  base = stack.sandbox.baseUrl;
  tenant = await createTenant(stack.sandbox);
}, 180_000);
afterAll(async () => {
  await stack?.close();
  await pair?.stop();
});

/** One statement on the replica's copy of the sandbox database. */
async function onReplica(sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: pair.replicaUrl(DATABASES.sandbox) });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const replicaSessions = async () =>
  Number(
    (await onReplica(`select count(*) as n from pg_stat_activity where application_name = '${REPLICA_APPLICATION}'`))
      .rows[0].n,
  );

const listedEmails = async () => {
  const res = await call(base, 'GET', '/v1/customers/?limit=100', { token: tenant.oat });
  expect(res.status).toBe(200);
  return (res.body.items as { email: string }[]).map(c => c.email);
};

maybe('behind a streaming replica', () => {
  it('serves the metrics and the lists from the replica, and a get by id from the primary', async () => {
    // Nothing has read the replica yet: its pool opens on the first heavy read.
    const created = await call(base, 'POST', '/v1/customers/', {
      token: tenant.oat,
      body: { email: 'first@example.com', name: 'First' },
    });
    expect(created.status).toBe(201);
    expect((await call(base, 'GET', `/v1/customers/${created.body.id}`, { token: tenant.oat })).status).toBe(200);
    expect(await replicaSessions()).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const metrics = await call(base, 'GET', `/v1/metrics/?start_date=${today}&end_date=${today}&interval=day`, {
      token: tenant.oat,
    });
    expect(metrics.status).toBe(200);
    expect(metrics.body.periods).toHaveLength(1);
    expect(await replicaSessions()).toBeGreaterThan(0);
  });

  it('misses a write made while replay is paused on the list and the export, never on the get or the write itself', async () => {
    await onReplica('select pg_wal_replay_pause()');
    try {
      const created = await call(base, 'POST', '/v1/customers/', {
        token: tenant.oat,
        body: { email: 'lagging@example.com', name: 'Lagging' },
      });
      // The write's own answer is read after its commit, on the primary.
      expect([created.status, created.body.email]).toEqual([201, 'lagging@example.com']);
      const renamed = await call(base, 'PATCH', `/v1/customers/${created.body.id}`, {
        token: tenant.oat,
        body: { name: 'Renamed' },
      });
      expect([renamed.status, renamed.body.name]).toEqual([200, 'Renamed']);
      const got = await call(base, 'GET', `/v1/customers/${created.body.id}`, { token: tenant.oat });
      expect([got.status, got.body.name]).toEqual([200, 'Renamed']);
      // The replica has not replayed the insert: the list and the export do not show it yet.
      const emails = await listedEmails();
      expect(emails).toContain('first@example.com');
      expect(emails).not.toContain('lagging@example.com');
      const exported = await call(base, 'GET', '/v1/customers/export', { token: tenant.oat });
      expect(exported.status).toBe(200);
      expect(exported.text).toContain('first@example.com');
      expect(exported.text).not.toContain('lagging@example.com');
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    // Replay resumed: the list catches up.
    const deadline = Date.now() + 15_000;
    let emails = await listedEmails();
    while (!emails.includes('lagging@example.com') && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 100));
      emails = await listedEmails();
    }
    expect(emails).toContain('lagging@example.com');
  });

  it('answers the heavy reads 503 ServiceUnavailable at once with the replica down, and serves the rest', async () => {
    await pair.stopReplica();
    const unavailable = { error: 'ServiceUnavailable', detail: 'The read replica is unavailable. Try again shortly.' };
    const started = Date.now();
    const list = await call(base, 'GET', '/v1/customers/', { token: tenant.oat, timeoutMs: 10_000 });
    expect([list.status, list.body]).toEqual([503, unavailable]);
    const today = new Date().toISOString().slice(0, 10);
    const metrics = await call(base, 'GET', `/v1/metrics/?start_date=${today}&end_date=${today}&interval=day`, {
      token: tenant.oat,
      timeoutMs: 10_000,
    });
    expect([metrics.status, metrics.body]).toEqual([503, unavailable]);
    // Refused connections fail at once, well inside the acquire timeout (2 s here).
    expect(Date.now() - started).toBeLessThan(2_000);
    const created = await call(base, 'POST', '/v1/customers/', {
      token: tenant.oat,
      body: { email: 'after@example.com', name: 'After' },
    });
    expect(created.status).toBe(201);
    const got = await call(base, 'GET', `/v1/customers/${created.body.id}`, { token: tenant.oat });
    expect([got.status, got.body.email]).toEqual([200, 'after@example.com']);
    expect((await call(base, 'GET', '/readyz')).status).toBe(200);
  });
});
