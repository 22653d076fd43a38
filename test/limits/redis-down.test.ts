import { createTenant, type Tenant } from '../support/stack.js';
import {
  burst,
  countKeys,
  eventually,
  get,
  type LimitedEnvironment,
  OwnRedis,
  startLimited,
  tally,
  testDatabase,
  uniquePrefix,
} from './support.js';

/**
 * Redis stopped mid-test (docs/reliability.md#checked-cases case 35): the service keeps answering on per-process
 * counters, says so in its logs and in /readyz (still 200), and goes back to Redis when it returns.
 * The Redis is the test's own (a child process on a free port); the machine's is never touched.
 */
let database: { url: string; drop: () => Promise<void> };
let redis: OwnRedis;
let env: LimitedEnvironment;
let alice: Tenant;
const prefix = uniquePrefix('down');

beforeAll(async () => {
  database = await testDatabase('redis_down');
  redis = await OwnRedis.start();
  env = await startLimited(database.url, {
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: prefix,
    RATE_LIMIT_RULES: 'principal=5/min,ip=100000/min',
  });
  alice = await createTenant(env);
});
afterAll(async () => {
  await env?.close();
  await redis?.kill();
  await database?.drop();
});

const readiness = async () => (await get(env.baseUrl, '/readyz')).body;

it('serves on per-process counters while Redis is down, says so, and returns to Redis', async () => {
  await eventually(async () => (await readiness()).redis === 'ok');
  expect(await readiness()).toMatchObject({ status: 'ok', redis: 'ok' });
  expect(tally(await burst(3, 1, () => get(env.baseUrl, '/v1/organizations/', alice.oat)))).toEqual({ 200: 3 });
  expect(await countKeys(redis.url, prefix)).toBeGreaterThan(0);

  await redis.kill();

  // The counters Redis held are gone with it: this process counts from zero, and still limits.
  const whileDown = await burst(6, 1, () => get(env.baseUrl, '/v1/organizations/', alice.oat));
  expect(whileDown).toEqual([200, 200, 200, 200, 200, 429]);
  const ready = await get(env.baseUrl, '/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body).toMatchObject({ status: 'ok', redis: 'unreachable', degraded: true });
  const warnings = env.logs.filter(l => l.level === 40 && /Redis unreachable/.test(l.msg));
  expect(warnings).toHaveLength(1);

  await redis.start();
  await eventually(async () => (await readiness()).redis === 'ok');
  expect(env.logs.some(l => l.level === 30 && /Redis reachable again/.test(l.msg))).toBe(true);
  // Back on Redis (empty after its restart): the organization counts afresh there.
  expect((await get(env.baseUrl, '/v1/organizations/', alice.oat)).status).toBe(200);
  expect(await countKeys(redis.url, prefix)).toBeGreaterThan(0);
});

it('answers while Redis is frozen (SIGSTOP): commands time out, counting goes on in memory', async () => {
  await eventually(async () => (await readiness()).redis === 'ok');
  const bob = await createTenant(env);
  redis.pause();
  try {
    // Every request is decided (no hang, no 5xx): the first waits out the command timeout, the next
    // ones skip Redis until it answers again.
    const whileFrozen = await burst(6, 1, () => get(env.baseUrl, '/v1/organizations/', bob.oat));
    expect(whileFrozen).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await readiness()).toMatchObject({ status: 'ok', redis: 'unreachable', degraded: true });
  } finally {
    redis.resume();
  }
  // A later request tries Redis again (at most once a second) and finds it.
  await eventually(async () => {
    await get(env.baseUrl, '/v1/organizations/', alice.pat);
    return (await readiness()).redis === 'ok';
  });
});
