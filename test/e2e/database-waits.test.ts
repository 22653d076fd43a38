import pg from 'pg';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Every wait on the database is bounded (docs/reliability.md#database-waits): a request that
 * cannot get a pooled connection, or waits for a lock, answers 503 `ServiceUnavailable` once its bound
 * runs out instead of hanging, and `/readyz` says 503 while a pool gives no connection. The bounds are
 * made short here (1.5 s to take a connection, 1 s for a lock) so the test waits little.
 */
jest.setTimeout(120_000);
/** Longer than every bound above: a request still unanswered by then would be hanging. */
const ANSWER_WITHIN_MS = 10_000;
let stack: TestStack;
let base: string;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack('database_waits', undefined, {
    DATABASE_POOL_SIZE: '2',
    DATABASE_ACQUIRE_TIMEOUT_MS: '1500',
    DATABASE_LOCK_TIMEOUT_MS: '1000',
  });
  base = stack.sandbox.baseUrl;
  tenant = await createTenant(stack.sandbox);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const busy = {
  error: 'ServiceUnavailable',
  detail: expect.stringMatching(/^The service is busy: .+ Try again shortly\.$/),
};

describe('a starved pool', () => {
  it("makes /readyz answer 503 and a request 503 ServiceUnavailable, until the pool's connections come back", async () => {
    const pool = await stack.sandbox.environment.billing.orm.driver.getConnection().getNativeClient();
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    try {
      const ready = await call(base, 'GET', '/readyz', { timeoutMs: ANSWER_WITHIN_MS });
      expect([ready.status, ready.body.status]).toEqual([503, 'unavailable']);
      const products = await call(base, 'GET', '/v1/products/', { token: tenant.oat, timeoutMs: ANSWER_WITHIN_MS });
      expect([products.status, products.body]).toEqual([503, busy]);
      expect(products.body.detail).toContain('no database connection was free in time');
      expect(products.headers.get('retry-after')).toBe('1');
      // Production's pools are its own: it stays ready.
      expect((await call(stack.production.baseUrl, 'GET', '/readyz', { timeoutMs: ANSWER_WITHIN_MS })).status).toBe(
        200,
      );
    } finally {
      for (const client of held) client.release();
    }
    expect((await call(base, 'GET', '/readyz', { timeoutMs: ANSWER_WITHIN_MS })).status).toBe(200);
    const products = await call(base, 'GET', '/v1/products/', { token: tenant.oat, timeoutMs: ANSWER_WITHIN_MS });
    expect(products.status).toBe(200);
  });
});

describe('a lock wait', () => {
  it('ends after the lock timeout with 503 ServiceUnavailable, and changes nothing', async () => {
    const created = await call(base, 'POST', '/v1/products/', {
      token: tenant.oat,
      body: { name: 'Locked', prices: [{ amount_type: 'free' }] },
    });
    expect(created.status).toBe(201);
    // Another session holds the product's row, as a long transaction would.
    const holder = new pg.Client({ connectionString: stack.sandbox.environment.billing.orm.config.get('clientUrl') });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from billing.products where id = $1 for update', [created.body.id]);
      const renamed = await call(base, 'PATCH', `/v1/products/${created.body.id}`, {
        token: tenant.oat,
        body: { name: 'Renamed' },
        timeoutMs: ANSWER_WITHIN_MS,
      });
      expect([renamed.status, renamed.body]).toEqual([503, busy]);
      expect(renamed.body.detail).toContain('a database lock was not granted in time');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    const read = await call(base, 'GET', `/v1/products/${created.body.id}`, { token: tenant.oat });
    expect(read.body.name).toBe('Locked');
    const renamed = await call(base, 'PATCH', `/v1/products/${created.body.id}`, {
      token: tenant.oat,
      body: { name: 'Renamed' },
      timeoutMs: ANSWER_WITHIN_MS,
    });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'Renamed']);
  });
});
