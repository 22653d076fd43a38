import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { EnvironmentName, RateLimit, RateLimitRuleName } from '../../../kit/config.js';
import type { Principal } from '../../../kit/principal.js';
import { callerKeyOf } from './caller-key.js';
import type { RedisConnection } from './redis-connection.js';
import { isApiCall, UNLIMITED_PATHS, zoneOf } from './rules.js';

export interface RateLimiterOptions {
  environment: EnvironmentName;
  /** Every rule's limits for this environment (rules.ts defaults with the configured changes). */
  limits: Record<RateLimitRuleName, readonly RateLimit[]>;
  /** Organization, customer, OAuth client or user id → its `principal` points per window. */
  overrides: Readonly<Record<string, number>>;
  /** Shared counters; absent: per-process memory only. */
  redis?: RedisConnection;
}

/**
 * Decides whether a request may go on. Every counter is a flexible fixed window (it starts at the
 * key's first request, docs/polar/rate-limits.md), counted atomically in Redis (one Lua call) or in memory, so
 * of N concurrent requests exactly `points` pass. The answer, when refused, is the exact time until
 * the window (or the zone's block) ends, in whole seconds rounded up: `Retry-After`.
 */
export class RateLimiter {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly options: RateLimiterOptions) {}

  /** The per-address limit, for every request but the health probes. Null: go on. */
  async checkAddress(path: string, ip: string): Promise<number | null> {
    if (UNLIMITED_PATHS.has(path)) return null;
    return this.spend('ip', this.options.limits.ip, `ip:${ip}`);
  }

  /** The caller's limit: its zone's when the path is in one, else the API's per-caller limit. */
  async checkCaller(
    method: string,
    path: string,
    principal: Principal | undefined,
    ip: string,
  ): Promise<number | null> {
    const caller = callerKeyOf(principal, ip);
    const zone = zoneOf(this.options.environment, method, path);
    if (zone) return this.spend(zone.name, this.options.limits[zone.name], caller.key, zone.blockSeconds);
    if (!isApiCall(path)) return null;
    const override = this.options.overrides[caller.id];
    const limits = override
      ? this.options.limits.principal.map(l => ({ points: override, seconds: l.seconds }))
      : this.options.limits.principal;
    return this.spend('principal', limits, caller.key);
  }

  private async spend(
    rule: RateLimitRuleName,
    limits: readonly RateLimit[],
    key: string,
    blockSeconds = 0,
  ): Promise<number | null> {
    for (const [index, limit] of limits.entries()) {
      const retryAfter = await this.counter(rule, index, limit, blockSeconds).consume(key);
      if (retryAfter !== null) return retryAfter;
    }
    return null;
  }

  private counter(rule: RateLimitRuleName, index: number, limit: RateLimit, blockSeconds: number): Counter {
    const id = `${rule}:${index}:${limit.points}/${limit.seconds}`;
    let counter = this.counters.get(id);
    if (!counter) {
      const { redis, environment } = this.options;
      // NOTE: the Redis key names rule and window, not points: an organization's counter stays the
      // same key when its override changes, and every process counts on the same key.
      const keyPrefix = `${redis?.keyPrefix ?? ''}rl:${environment}:${rule}:${index}:${limit.seconds}`;
      const settings = { keyPrefix, points: limit.points, duration: limit.seconds, blockDuration: blockSeconds };
      counter = new Counter(
        new RateLimiterMemory(settings),
        redis
          ? new RateLimiterRedis({ ...settings, storeClient: redis.client, rejectIfRedisNotReady: true })
          : undefined,
        redis,
      );
      this.counters.set(id, counter);
    }
    return counter;
  }
}

/** One limit's counters: in Redis while it answers, in this process's memory otherwise. */
class Counter {
  constructor(
    private readonly memory: RateLimiterMemory,
    private readonly shared: RateLimiterRedis | undefined,
    private readonly connection: RedisConnection | undefined,
  ) {}

  async consume(key: string): Promise<number | null> {
    if (this.shared && this.connection?.shouldTry()) {
      try {
        await this.shared.consume(key);
        this.connection.succeeded();
        return null;
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) {
          this.connection.succeeded();
          return retryAfterOf(outcome);
        }
        this.connection.failed(outcome);
      }
    }
    try {
      await this.memory.consume(key);
      return null;
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return retryAfterOf(outcome);
      throw outcome;
    }
  }
}

/** Whole seconds until the counter resets (or the block ends), rounded up, at least 1. */
function retryAfterOf(refused: RateLimiterRes): number {
  return Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
}
