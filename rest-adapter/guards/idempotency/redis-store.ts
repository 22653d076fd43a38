import { createHash } from 'node:crypto';
import type { RedisConnection } from '../rate-limit/redis-connection.js';
import {
  type Claim,
  DEFAULT_TIMES,
  type IdempotencyStore,
  MemoryIdempotencyStore,
  type StoreTimes,
  answerOf,
} from './store.js';

interface Entry {
  fingerprint: string;
  /** Unique per claim, so only the claim that wrote the entry may finish or drop it. */
  claim: string;
  status?: number;
  contentType?: string | null;
  body?: string;
}

/** Replaces or deletes the entry only while it is still the given claim's, unfinished. */
const FINISH = `
local current = redis.call('get', KEYS[1])
if not current then return 0 end
local entry = cjson.decode(current)
if entry.claim ~= ARGV[1] or entry.status then return 0 end
if ARGV[2] == '' then return redis.call('del', KEYS[1]) end
redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
`;

/**
 * Idempotency keys in Redis, for the distributed REST adapter (it has no database). A key is claimed
 * with `SET NX PX <lease>` and its result stored with the retention as TTL; Redis's expiry does the
 * sweeping. While Redis is unreachable the keys fall back to this process's memory (logged, and
 * /readyz says degraded), so a retry that reaches another process may run again.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly kind = 'redis';
  private readonly fallback: MemoryIdempotencyStore;
  private claims = 0;

  constructor(
    private readonly connection: RedisConnection,
    private readonly environment: string,
    private readonly times: StoreTimes = DEFAULT_TIMES,
  ) {
    this.fallback = new MemoryIdempotencyStore(times);
  }

  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    if (!this.connection.shouldTry()) return this.fallback.claim(scope, key, fingerprint);
    try {
      const claim = await this.claimInRedis(scope, key, fingerprint);
      this.connection.succeeded();
      return claim;
    } catch (error) {
      this.connection.failed(error);
      return this.fallback.claim(scope, key, fingerprint);
    }
  }

  private async claimInRedis(scope: string, key: string, fingerprint: string): Promise<Claim> {
    const redis = this.connection.client;
    // The key is hashed: clients choose it (up to 255 characters), the Redis key stays short and inert.
    const id = `${this.connection.keyPrefix}idem:${this.environment}:${scope}:${createHash('sha256').update(key).digest('base64url')}`;
    const claim = `${process.pid}:${Date.now()}:${++this.claims}:${Math.random()}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const entry: Entry = { fingerprint, claim };
      if (await redis.set(id, JSON.stringify(entry), 'PX', this.times.leaseMs, 'NX')) {
        return {
          outcome: 'claimed',
          complete: async response => {
            const done: Entry = {
              ...entry,
              status: response.status,
              contentType: response.contentType,
              body: response.body.toString('base64'),
            };
            await redis.eval(FINISH, 1, id, claim, JSON.stringify(done), String(this.times.retentionMs));
          },
          release: async () => {
            await redis.eval(FINISH, 1, id, claim, '', '0');
          },
        };
      }
      const stored = await redis.get(id);
      if (!stored) continue; // expired or released in between: claim again
      const found = JSON.parse(stored) as Entry;
      return answerOf(
        {
          fingerprint: found.fingerprint,
          response:
            found.status === undefined
              ? null
              : {
                  status: found.status,
                  contentType: found.contentType ?? null,
                  body: Buffer.from(found.body ?? '', 'base64'),
                },
        },
        fingerprint,
      );
    }
    return { outcome: 'in_progress' };
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }
}
