import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createLogger } from '../../kit/logger.js';
import { PostgresIdempotencyStore } from '../../rest-adapter/guards/idempotency/postgres-store.js';
import { RedisIdempotencyStore } from '../../rest-adapter/guards/idempotency/redis-store.js';
import {
  type Claim,
  type IdempotencyStore,
  MemoryIdempotencyStore,
  type StoreTimes,
} from '../../rest-adapter/guards/idempotency/store.js';
import { RedisConnection } from '../../rest-adapter/guards/rate-limit/redis-connection.js';
import { deleteKeys, eventually, MACHINE_REDIS, OwnRedis, testDatabase, uniquePrefix } from './support.js';

/**
 * The three idempotency stores answer alike (claim, in progress, mismatch, replay, release, expiry,
 * tenant scope), on the real PostgreSQL and the machine's Redis. The clock is the test's for
 * PostgreSQL and memory; Redis expires keys itself, so its retention is short and the test polls.
 */
let database: { url: string; drop: () => Promise<void> };
const prefix = uniquePrefix('idem');
const connections: RedisConnection[] = [];
const logger = createLogger('silent');

beforeAll(async () => {
  database = await testDatabase('idempotency_stores');
});
afterAll(async () => {
  for (const c of connections) await c.close();
  await deleteKeys(MACHINE_REDIS, prefix);
  await database?.drop();
});

let clock = Date.now();
const times: StoreTimes = { retentionMs: 60_000, leaseMs: 30_000, now: () => clock };
const response = (text: string) => ({ status: 201, contentType: 'application/json', body: Buffer.from(text) });

const stores: Record<string, () => Promise<IdempotencyStore>> = {
  postgres: () => PostgresIdempotencyStore.open(database.url, times),
  redis: async () => {
    const connection = new RedisConnection(MACHINE_REDIS, prefix, logger);
    connections.push(connection);
    await eventually(async () => !connection.degraded);
    return new RedisIdempotencyStore(connection, 'production', { ...times, retentionMs: 700, leaseMs: 700 });
  },
  memory: async () => new MemoryIdempotencyStore(times),
};

function claimed(claim: Claim) {
  if (claim.outcome !== 'claimed') throw new Error(`expected a claim, got ${claim.outcome}`);
  return claim;
}

describe.each(Object.keys(stores))('%s idempotency store', kind => {
  let store: IdempotencyStore;
  beforeAll(async () => {
    store = await stores[kind]();
  });
  afterAll(async () => {
    await store?.close();
  });

  it('claims a new key once; the same request meanwhile is in progress, another one a mismatch', async () => {
    const key = randomUUID();
    claimed(await store.claim('organization:a', key, 'f1'));
    expect((await store.claim('organization:a', key, 'f1')).outcome).toBe('in_progress');
    expect((await store.claim('organization:a', key, 'f2')).outcome).toBe('mismatch');
  });

  it('replays the stored result', async () => {
    const key = randomUUID();
    await claimed(await store.claim('organization:a', key, 'f1')).complete(response('{"id":1}'));
    const again = await store.claim('organization:a', key, 'f1');
    expect(again).toEqual({ outcome: 'replay', response: response('{"id":1}') });
    expect((await store.claim('organization:a', key, 'f2')).outcome).toBe('mismatch');
  });

  it('gives a released key back (a 5xx is not stored)', async () => {
    const key = randomUUID();
    await claimed(await store.claim('organization:a', key, 'f1')).release();
    claimed(await store.claim('organization:a', key, 'f1'));
  });

  it('keeps keys per tenant', async () => {
    const key = randomUUID();
    await claimed(await store.claim('organization:a', key, 'f1')).complete(response('a'));
    claimed(await store.claim('organization:b', key, 'f1'));
  });

  it('concurrent claims of one key: exactly one wins', async () => {
    const key = randomUUID();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.claim('customer:c', key, 'f')));
    expect(outcomes.filter(o => o.outcome === 'claimed')).toHaveLength(1);
    expect(outcomes.filter(o => o.outcome === 'in_progress')).toHaveLength(9);
  });

  it('forgets a result after its retention and a dead claim after its lease', async () => {
    const done = randomUUID();
    const dead = randomUUID();
    await claimed(await store.claim('organization:a', done, 'f1')).complete(response('old'));
    claimed(await store.claim('organization:a', dead, 'f1'));
    if (kind === 'redis') {
      await eventually(async () => (await store.claim('organization:a', done, 'f2')).outcome === 'claimed');
      await eventually(async () => (await store.claim('organization:a', dead, 'f2')).outcome === 'claimed');
      return;
    }
    clock += times.leaseMs + 1;
    expect((await store.claim('organization:a', done, 'f2')).outcome).toBe('mismatch');
    claimed(await store.claim('organization:a', dead, 'f2'));
    clock += times.retentionMs;
    claimed(await store.claim('organization:a', done, 'f2'));
  });
});

it('the Redis store falls back to per-process memory while its Redis is down', async () => {
  const redis = await OwnRedis.start();
  const connection = new RedisConnection(redis.url, prefix, logger);
  connections.push(connection);
  try {
    await eventually(async () => !connection.degraded);
    const store = new RedisIdempotencyStore(connection, 'production');
    const key = randomUUID();
    await claimed(await store.claim('organization:a', key, 'f')).complete(response('in redis'));
    await redis.kill();
    // Memory does not know the key: it runs (once) and is then replayed from memory.
    await claimed(await store.claim('organization:a', key, 'f')).complete(response('in memory'));
    expect(connection.degraded).toBe(true);
    expect(await store.claim('organization:a', key, 'f')).toEqual({
      outcome: 'replay',
      response: response('in memory'),
    });
  } finally {
    await redis.kill();
  }
});

it('the PostgreSQL store deletes expired keys by itself, on the background-work spine, once they expire', async () => {
  // Real time and a database of its own: the sweep is due when the earliest key it knows of expires
  // (a claim's lease end, then the stored result's retention), no sooner than the spacing after the last.
  const own = await testDatabase('idempotency_sweep');
  const shortTimes: StoreTimes = { retentionMs: 300, leaseMs: 300, now: () => Date.now() };
  const store = await PostgresIdempotencyStore.open(own.url, shortTimes, undefined, { spacingMs: 100, pollMs: 200 });
  const pool = new pg.Pool({ connectionString: own.url, max: 1 });
  const key = `swept-${randomUUID()}`;
  const rows = async () =>
    (await pool.query('select 1 from edge.idempotency_keys where key = $1', [key])).rowCount ?? 0;
  try {
    await claimed(await store.claim('organization:a', key, 'f1')).complete(response('short-lived'));
    expect(await rows()).toBe(1);
    // No further claim or request: only the sweep can remove the row.
    await eventually(async () => (await rows()) === 0);
  } finally {
    await store.close();
    await pool.end();
    await own.drop();
  }
});
