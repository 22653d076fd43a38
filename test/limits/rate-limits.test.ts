import { ALL_SCOPES } from '../../kit/scopes.js';
import { call, createTenant, type Tenant } from '../support/stack.js';
import {
  burst,
  countKeys,
  deleteKeys,
  get,
  type LimitedEnvironment,
  EXACT_REDIS_COUNTING,
  MACHINE_REDIS,
  startLimited,
  tally,
  testDatabase,
  uniquePrefix,
} from './support.js';

/**
 * docs/interface.md#limits / docs/polar/rate-limits.md rate limits, through real HTTP, with the real numbers: 300 per
 * minute per organization (customer, OAuth client, user), 100 per address, 3 on the license-key
 * checks, Polar's abuse limits on sign-in. Windows that are one second in production are widened by
 * configuration (`ip=100/60s`) so the test never races a clock: it counts requests, never time.
 * Every case runs on in-memory counters and on the machine's Redis (a key prefix of its own).
 */
let database: { url: string; drop: () => Promise<void> };
const started: LimitedEnvironment[] = [];
const prefixes: string[] = [];

beforeAll(async () => {
  database = await testDatabase('rate_limits');
});
// An environment started by a test itself is closed after it (those of a describe's beforeAll live
// until the end): thirteen environments of three subgraphs each, all kept open until the end, hold
// about as many connections as a default PostgreSQL allows.
let inTest = false;
const startedByTest: LimitedEnvironment[] = [];
beforeEach(() => {
  inTest = true;
});
afterEach(async () => {
  inTest = false;
  for (const env of startedByTest.splice(0)) {
    await env.close();
    started.splice(started.indexOf(env), 1);
  }
});
afterAll(async () => {
  for (const env of started) await env.close();
  for (const prefix of prefixes) await deleteKeys(MACHINE_REDIS, prefix);
  await database?.drop();
});

async function start(settings: Record<string, string>, store: 'memory' | 'redis', name?: 'production' | 'sandbox') {
  const prefix = uniquePrefix('rl');
  prefixes.push(prefix);
  const env = await startLimited(
    database.url,
    // A Redis reply later than 250 ms on a busy machine would count that request in memory instead (the
    // fallback, redis-down.test.ts): these tests count exactly, so they give Redis 5 s.
    {
      ...settings,
      ...(store === 'redis' ? { REDIS_URL: MACHINE_REDIS, REDIS_KEY_PREFIX: prefix, ...EXACT_REDIS_COUNTING } : {}),
    },
    name,
  );
  started.push(env);
  if (inTest) startedByTest.push(env);
  return { env, prefix };
}

const expectRefused = (res: { status: number; headers: Headers; text: string }, maxSeconds: number) => {
  expect(res.status).toBe(429);
  expect(res.text).toBe('');
  expect(res.headers.get('content-type')).toBeNull();
  const retryAfter = res.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxSeconds);
};

describe.each(['memory', 'redis'] as const)('rate limits on %s counters', store => {
  describe('300 requests per minute per organization', () => {
    let env: LimitedEnvironment;
    let alice: Tenant;
    let bob: Tenant;
    let aliceSecondOat: string;
    let prefix: string;

    beforeAll(async () => {
      // Per-address limit out of the way: every request comes from 127.0.0.1.
      ({ env, prefix } = await start({ RATE_LIMIT_RULES: 'ip=100000/min' }, store));
      alice = await createTenant(env);
      bob = await createTenant(env);
      aliceSecondOat = await env.admin.createOrganizationAccessToken(alice.organizationId, [...ALL_SCOPES]);
    });

    it('lets the 300th request through and refuses the 301st, across two tokens of the organization', async () => {
      const first = await burst(299, 16, i =>
        get(env.baseUrl, '/v1/organizations/', i % 2 ? aliceSecondOat : alice.oat),
      );
      expect(tally(first)).toEqual({ 200: 299 });
      expect((await get(env.baseUrl, '/v1/organizations/', alice.oat)).status).toBe(200);
      expectRefused(await get(env.baseUrl, '/v1/organizations/', aliceSecondOat), 60);
      expectRefused(await get(env.baseUrl, '/v1/products/', alice.oat), 60);
    });

    it('keeps other organizations and the owner’s personal token on counters of their own', async () => {
      expect((await get(env.baseUrl, '/v1/organizations/', bob.oat)).status).toBe(200);
      expect((await get(env.baseUrl, '/v1/organizations/', alice.pat)).status).toBe(200);
    });

    it('counts exactly under concurrency: 310 requests at once, 300 pass', async () => {
      const carol = await createTenant(env);
      const statuses = await burst(310, 310, () => get(env.baseUrl, '/v1/organizations/', carol.oat));
      expect(tally(statuses)).toEqual({ 200: 300, 429: 10 });
    });

    it(
      store === 'redis'
        ? 'shares the counters with every process on the same Redis'
        : 'keeps in-memory counters per process',
      async () => {
        const other = await startLimited(database.url, {
          RATE_LIMIT_RULES: 'ip=100000/min',
          ...(store === 'redis' ? { REDIS_URL: MACHINE_REDIS, REDIS_KEY_PREFIX: prefix, ...EXACT_REDIS_COUNTING } : {}),
        });
        started.push(other);
        const res = await get(other.baseUrl, '/v1/organizations/', alice.oat);
        if (store === 'redis') {
          expectRefused(res, 60);
          expect(await countKeys(MACHINE_REDIS, prefix)).toBeGreaterThan(0);
        } else expect(res.status).toBe(200);
      },
    );
  });

  describe('100 requests per address', () => {
    let env: LimitedEnvironment;
    let alice: Tenant;

    beforeAll(async () => {
      ({ env } = await start({ RATE_LIMIT_RULES: 'ip=100/60s,principal=100000/min' }, store));
      alice = await createTenant(env);
    });

    it('lets the 100th request through and refuses the 101st, whatever X-Forwarded-For says', async () => {
      const first = await burst(99, 16, () => get(env.baseUrl, '/v1/organizations/', alice.oat));
      expect(tally(first)).toEqual({ 200: 99 });
      expect((await get(env.baseUrl, '/v1/organizations/', alice.oat)).status).toBe(200);
      expectRefused(await get(env.baseUrl, '/v1/organizations/', alice.oat), 60);
      // Anonymous, pages, another token: the address is what counts.
      expectRefused(await get(env.baseUrl, '/login'), 60);
      expectRefused(await get(env.baseUrl, '/v1/organizations/', alice.oat, { 'x-forwarded-for': '203.0.113.9' }), 60);
    });

    it('never limits the health probes', async () => {
      expect((await get(env.baseUrl, '/healthz')).status).toBe(200);
      expect((await get(env.baseUrl, '/readyz')).status).toBe(200);
    });
  });

  describe('abuse zones', () => {
    const settings = {
      RATE_LIMIT_RULES: 'ip=100000/min,license_keys=3/60s',
      SANDBOX_RATE_LIMIT_RULES: 'ip=100000/min,license_keys=3/60s',
    };
    const validate = (base: string) =>
      call(base, 'POST', '/v1/customer-portal/license-keys/validate', { body: { key: 'x', organization_id: 'y' } });
    const signIn = (base: string) =>
      call(base, 'POST', '/login', {
        rawBody: 'email=nobody%40example.com&password=wrong',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    it('refuses the 4th unauthenticated license-key check, for the 60 s block', async () => {
      const { env } = await start(settings, store);
      for (let i = 0; i < 3; i++) expect((await validate(env.baseUrl)).status).not.toBe(429);
      expectRefused(await validate(env.baseUrl), 60);
      expect(Number((await validate(env.baseUrl)).headers.get('retry-after'))).toBeGreaterThan(1);
    });

    it('refuses the 7th sign-in in a minute in production, for Polar’s 15-minute block', async () => {
      const { env } = await start(settings, store);
      for (let i = 0; i < 6; i++) expect((await signIn(env.baseUrl)).status).not.toBe(429);
      const refused = await signIn(env.baseUrl);
      expectRefused(refused, 900);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    });

    it('in the sandbox, holds neither: only the per-caller and per-address limits', async () => {
      const { env } = await start(settings, store, 'sandbox');
      const signIns = await burst(10, 1, () => signIn(env.baseUrl));
      expect(signIns.filter(s => s === 429)).toEqual([]);
      const checks = await burst(10, 1, () => validate(env.baseUrl));
      expect(checks.filter(s => s === 429)).toEqual([]);
    });
  });
});

describe('configured limits', () => {
  it('gives an organization named in RATE_LIMIT_OVERRIDES its own limit', async () => {
    // The organization must exist before the process starts with its id in the configuration.
    const { env: setup } = await start({}, 'memory');
    const big = await createTenant(setup);
    const small = await createTenant(setup);
    const { env } = await start(
      { RATE_LIMIT_RULES: 'principal=5/min,ip=100000/min', RATE_LIMIT_OVERRIDES: `${big.organizationId}=8` },
      'memory',
    );
    expect(tally(await burst(9, 1, () => get(env.baseUrl, '/v1/organizations/', big.oat)))).toEqual({ 200: 8, 429: 1 });
    expect(tally(await burst(6, 1, () => get(env.baseUrl, '/v1/organizations/', small.oat)))).toEqual({
      200: 5,
      429: 1,
    });
  });

  it('counts a customer session against the customer, apart from its organization', async () => {
    const { env } = await start({ RATE_LIMIT_RULES: 'principal=4/min,ip=100000/min' }, 'memory');
    const shop = await createTenant(env);
    const customer = await call(env.baseUrl, 'POST', '/v1/customers/', {
      token: shop.oat,
      body: { email: `rl-${Date.now()}@example.com` },
    });
    const session = await call(env.baseUrl, 'POST', '/v1/customer-sessions/', {
      token: shop.oat,
      body: { customer_id: customer.body.id },
    });
    expect(session.status).toBe(201);
    const me = () => get(env.baseUrl, '/v1/customer-portal/customers/me', session.body.token);
    expect(tally(await burst(5, 1, me))).toEqual({ 200: 4, 429: 1 });
    // The organization spent 2 of its 4: two more pass, then it is refused too.
    expect(tally(await burst(3, 1, () => get(env.baseUrl, '/v1/customers/', shop.oat)))).toEqual({ 200: 2, 429: 1 });
  });

  it('sets the sandbox limits apart from production’s', async () => {
    const settings = {
      RATE_LIMIT_RULES: 'principal=2/min,ip=100000/min',
      SANDBOX_RATE_LIMIT_RULES: 'principal=4/min,ip=100000/min',
    };
    const { env: production } = await start(settings, 'memory');
    const { env: sandbox } = await start(settings, 'memory', 'sandbox');
    const p = await createTenant(production);
    const s = await createTenant(sandbox);
    expect(tally(await burst(3, 1, () => get(production.baseUrl, '/v1/organizations/', p.oat)))).toEqual({
      200: 2,
      429: 1,
    });
    expect(tally(await burst(5, 1, () => get(sandbox.baseUrl, '/v1/organizations/', s.oat)))).toEqual({
      200: 4,
      429: 1,
    });
  });

  it('counts per X-Forwarded-For client only behind a proxy named in TRUST_PROXY', async () => {
    const { env } = await start({ RATE_LIMIT_RULES: 'ip=2/60s', TRUST_PROXY: 'loopback' }, 'memory');
    const from = (client: string) => get(env.baseUrl, '/login', undefined, { 'x-forwarded-for': client });
    expect(tally(await burst(3, 1, () => from('203.0.113.1')))).toEqual({ 200: 2, 429: 1 });
    expect((await from('203.0.113.2')).status).toBe(200);
  });

  it('counts the unauthenticated GitHub secret-scanning endpoint against the address', async () => {
    const { env } = await start({ RATE_LIMIT_RULES: 'ip=2/60s' }, 'memory');
    const report = () => call(env.baseUrl, 'POST', '/v1/integrations/github/secret-scanning', { body: [] });
    // An unsigned report is 422 (missing signature headers): the limit is checked before anything else.
    expect(tally((await Promise.all([report(), report(), report()])).map(r => r.status))).toEqual({ 422: 2, 429: 1 });
  });

  it('turns every limit off with RATE_LIMITS=off', async () => {
    const { env } = await start({ RATE_LIMITS: 'off', RATE_LIMIT_RULES: 'principal=1/min,ip=1/min' }, 'memory');
    const t = await createTenant(env);
    expect(tally(await burst(3, 1, () => get(env.baseUrl, '/v1/organizations/', t.oat)))).toEqual({ 200: 3 });
  });
});
