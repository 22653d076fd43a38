import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { IdentityRuntime } from '../../subgraphs/identity/runtime.js';
import {
  burst,
  countKeys,
  deleteKeys,
  EXACT_REDIS_COUNTING,
  MACHINE_REDIS,
  redisReady,
  tally,
  uniquePrefix,
} from '../limits/support.js';
import { within } from '../support/embedded-server.js';
import { call, createTenant, identityAdminOn, type Tenant } from '../support/stack.js';
import { readBack, type SentCreate, sendCreate } from '../support/creates-under-kill.js';
import { untilRefused } from '../support/revocation.js';
import { ReplicaPair } from './replica-pair.js';

/**
 * Two built `npm start` replicas on one pair of databases, behind the test's PgBouncer in transaction
 * pooling mode when it is installed (test/replicas/replica-pair.ts), both counting rate limits in the
 * machine's Redis under a key prefix of this run (docs/pgbouncer.md#many-replicas). Then: a token
 * revoked through A is refused by B, which had just cached its principal; a caller's limit is one
 * counter for both replicas; and A killed (SIGKILL) in the middle of a stream of creates loses none that
 * it acknowledged, and doubles none.
 * Without Redis the file is skipped and says so.
 */
jest.setTimeout(300_000);

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const redisUp = await redisAnswers(MACHINE_REDIS);
if (!redisUp)
  console.log(`replicas-truth: skipped, Redis does not answer at ${MACHINE_REDIS} (apt-get install redis-server)`);
const maybe = redisUp ? it : it.skip;

/** The per-caller limit of the two rate-limited organizations (`RATE_LIMIT_OVERRIDES`, per minute). */
const SEQUENTIAL_LIMIT = 6;
const BURST_LIMIT = 10;
const prefix = uniquePrefix('replicas-truth');
const pair = new ReplicaPair();
const { replicas } = pair;
let identity: IdentityRuntime;
let tenant: Tenant;
let limited: Tenant;
let burstLimited: Tenant;

beforeAll(async () => {
  if (!redisUp) return;
  await pair.start({
    label: 'replicas-truth',
    // The tenants first (as the CLI makes them: identity's admin on the sandbox database), so the
    // replicas can be started with two organizations' own low limits.
    prepare: async ({ sandbox }) => {
      const env = await identityAdminOn(sandbox);
      identity = env.runtime;
      tenant = await createTenant(env);
      limited = await createTenant(env);
      burstLimited = await createTenant(env);
    },
    settings: () => ({
      LOG_LEVEL: 'error',
      REDIS_URL: MACHINE_REDIS,
      REDIS_KEY_PREFIX: prefix,
      ...EXACT_REDIS_COUNTING,
      RATE_LIMITS: 'on',
      // Every request of this file comes from 127.0.0.1: the address and default caller limits are
      // raised out of the way, and two organizations get limits low enough to count to.
      SANDBOX_RATE_LIMIT_RULES: 'ip=100000/min,principal=100000/min',
      RATE_LIMIT_OVERRIDES: `${limited.organizationId}=${SEQUENTIAL_LIMIT},${burstLimited.organizationId}=${BURST_LIMIT}`,
    }),
  });
  // Both count in Redis, not in their own memory (the limiter's fallback), before anything is counted.
  for (const { server, baseUrl } of replicas) {
    const ready = await within(redisReady(baseUrl), 10_000, 'redis: "ok" on /readyz', server);
    expect(ready).toMatchObject({ redis: 'ok' });
  }
});

afterAll(async () => {
  await identity?.close();
  await pair.stop();
  if (redisUp) await deleteKeys(MACHINE_REDIS, prefix);
});

const A = 0;
const B = 1;
const on = (replica: number, method: string, path: string, token: string, body?: unknown) =>
  call(replicas[replica].baseUrl, method, path, { token, body, timeoutMs: 30_000 });

maybe('a token revoked through one replica is refused by the other, which had cached it', async () => {
  const created = await on(A, 'POST', '/v1/organization-access-tokens/', tenant.pat, {
    organization_id: tenant.organizationId,
    comment: 'replica',
    scopes: ['organizations:read'],
  });
  expect(created.status).toBe(201);
  const { id } = created.body.organization_access_token;
  const token = created.body.token as string;
  // B resolves it and keeps the principal in its cache (5 s, kit/principal-cache.ts).
  for (let i = 0; i < 2; i++) expect((await on(B, 'GET', '/v1/organizations/', token)).status).toBe(200);

  expect((await on(A, 'DELETE', `/v1/organization-access-tokens/${id}`, tenant.pat)).status).toBe(204);
  const revokedAt = Date.now();

  const { refusal, statuses, ms } = await untilRefused(() => on(B, 'GET', '/v1/organizations/', token), revokedAt);
  expect(refusal.status).toBe(401);
  expect(refusal.body.error).toBe('invalid_token');
  console.log(`replicas-truth: B answered ${statuses.join(', ')} within ${ms} ms of the revocation`);
  // And it stays refused on both, whichever replica is asked.
  for (const replica of [A, B, A, B]) expect((await on(replica, 'GET', '/v1/organizations/', token)).status).toBe(401);
  // The tenant's own token still works on both: the eviction named one token, not everything.
  for (const replica of [A, B]) expect((await on(replica, 'GET', '/v1/organizations/', tenant.oat)).status).toBe(200);
});

maybe("a caller's rate limit is one counter for both replicas", async () => {
  // Alternating replicas: each sees half. Counted apart, neither would refuse before its own sixth.
  const statuses: number[] = [];
  const retryAfter: (string | null)[] = [];
  for (let i = 0; i < SEQUENTIAL_LIMIT + 2; i++) {
    const res = await on(i % 2 === 0 ? A : B, 'GET', '/v1/organizations/', limited.oat);
    statuses.push(res.status);
    retryAfter.push(res.headers.get('retry-after'));
  }
  // The (limit+1)-th goes to A and the next to B: both refuse.
  expect(statuses).toEqual([...Array(SEQUENTIAL_LIMIT).fill(200), 429, 429]);
  for (const seconds of retryAfter.slice(SEQUENTIAL_LIMIT)) {
    expect(Number(seconds)).toBeGreaterThanOrEqual(1);
    expect(Number(seconds)).toBeLessThanOrEqual(60);
  }

  // Concurrently: three times the limit, spread over both, ten in flight; exactly the limit pass.
  const concurrent = await burst(BURST_LIMIT * 3, 10, index =>
    on(index % 2 === 0 ? A : B, 'GET', '/v1/organizations/', burstLimited.oat),
  );
  expect(tally(concurrent)).toEqual({ 200: BURST_LIMIT, 429: BURST_LIMIT * 2 });
  // The counters are Redis keys under this run's prefix (docs/limits.md), not each process's memory.
  expect(await countKeys(MACHINE_REDIS, prefix)).toBeGreaterThan(0);
});

interface Create extends SentCreate {
  replica: number;
}

maybe('killing one replica mid-load loses no acknowledged write and doubles none', async () => {
  const run = randomUUID().slice(0, 8);
  const creates: Create[] = [];
  let sequence = 0;
  let killed = false;
  const acknowledged = (replica: number, afterKill: boolean) =>
    creates.filter(c => c.replica === replica && c.outcome === 201 && afterKill === c.name.endsWith('-after')).length;

  const create = async (replica: number): Promise<void> => {
    const name = `load-${run}-${sequence++}-${killed ? 'after' : 'before'}`;
    const entry: Create = { name, replica, outcome: 'error' };
    creates.push(entry);
    // Not retried: one that got no answer (A died with it in flight) may or may not exist, never twice.
    await sendCreate(entry, body => on(replica, 'POST', '/v1/products/', tenant.oat, body));
  };

  // Eight clients, four on each replica; once A is dead, every client goes on against B. The kill comes
  // after A has acknowledged 40 creates (while its clients have requests in flight), and the stream
  // ends when B has acknowledged 80 after it: counts, not clocks.
  const done = () => killed && acknowledged(B, true) >= 80;
  const clients = Array.from({ length: 8 }, async (_, index) => {
    while (!done()) await create(killed ? B : index % 2 === 0 ? A : B);
  });
  const killer = (async () => {
    while (acknowledged(A, false) < 40) await new Promise(r => setTimeout(r, 5));
    killed = true;
    replicas[A].server.child.kill('SIGKILL');
    await replicas[A].server.exited;
  })();
  await Promise.all([...clients, killer]);

  const answered = creates.filter(c => c.outcome === 201);
  expect(acknowledged(A, false)).toBeGreaterThanOrEqual(40);
  expect(acknowledged(B, true)).toBeGreaterThanOrEqual(80);
  // Anything but 201 or no answer is a failure of its own (a 5xx from B, say), not a casualty of the kill.
  const unexpected = creates.filter(c => c.outcome !== 201 && c.outcome !== 'error');
  expect(unexpected).toEqual([]);

  // Read through B, the survivor: every acknowledged create is there with its id, nothing twice.
  const { byName, doubled, missing, unasked } = await readBack(
    replicas[B].baseUrl,
    tenant.oat,
    `load-${run}-`,
    creates,
  );
  expect(doubled).toEqual([]);
  expect(missing).toEqual([]);
  // Unanswered ones either exist once or not at all; nothing listed that nobody asked for.
  expect(unasked).toEqual([]);
  console.log(
    `replicas-truth: ${creates.length} creates, ${answered.length} acknowledged, ` +
      `${creates.filter(c => c.outcome === 'error').length} unanswered (of which ` +
      `${creates.filter(c => c.outcome === 'error' && byName.has(c.name)).length} committed)`,
  );
});
