import type { RequestHandler } from 'express';
import { type Config, databaseWaitsOf, type EnvironmentName } from '../../kit/config.js';
import type { Logger } from '../../kit/logger.js';
import { idempotencyKeys } from './idempotency/middleware.js';
import { PostgresIdempotencyStore } from './idempotency/postgres-store.js';
import { RedisIdempotencyStore } from './idempotency/redis-store.js';
import { type IdempotencyStore, MemoryIdempotencyStore } from './idempotency/store.js';
import { addressRateLimit, callerRateLimit } from './rate-limit/middleware.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { RedisConnection } from './rate-limit/redis-connection.js';
import { limitsOf } from './rate-limit/rules.js';

/**
 * What stands between the socket and the routes of one environment: rate limits and idempotency
 * keys. Built the same way in both topologies; only the stores differ (docs/limits.md).
 */
export interface RequestGuards {
  /** The per-address limit, before the body is read. */
  early: RequestHandler[];
  /** Once the principal is known: the caller's limits, then idempotency keys on the API's POSTs. */
  afterPrincipal(isApiPath: (path: string) => boolean): RequestHandler[];
  /** Express's `trust proxy` (TRUST_PROXY): which peers' X-Forwarded-For names the client address. */
  trustProxy?: string;
  /** Fields added to the /readyz answer (still 200 when degraded: the service serves on). */
  readiness(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface RequestGuardOptions {
  environment: EnvironmentName;
  config: Config;
  logger: Logger;
  /** The environment's PostgreSQL (embedded topology): idempotency keys are stored there. */
  databaseUrl?: string;
}

export async function createRequestGuards(options: RequestGuardOptions): Promise<RequestGuards> {
  const { config, environment, logger } = options;
  const redis = config.REDIS_URL
    ? new RedisConnection(config.REDIS_URL, config.REDIS_KEY_PREFIX, logger, config.REDIS_COMMAND_TIMEOUT_MS)
    : undefined;
  let idempotency: IdempotencyStore;
  try {
    idempotency = options.databaseUrl
      ? await PostgresIdempotencyStore.open(options.databaseUrl, undefined, databaseWaitsOf(config))
      : redis
        ? new RedisIdempotencyStore(redis, environment)
        : new MemoryIdempotencyStore();
  } catch (error) {
    await redis?.close();
    throw error;
  }
  const limiter =
    config.RATE_LIMITS === 'on'
      ? new RateLimiter({
          environment,
          limits: limitsOf(environment === 'sandbox' ? config.SANDBOX_RATE_LIMIT_RULES : config.RATE_LIMIT_RULES),
          overrides: config.RATE_LIMIT_OVERRIDES,
          redis,
        })
      : undefined;
  logger.info(
    {
      rateLimits: limiter ? (redis ? 'redis' : 'memory') : 'off',
      idempotencyKeys: idempotency.kind,
      trustProxy: config.TRUST_PROXY ?? null,
    },
    'request guards',
  );
  return {
    trustProxy: config.TRUST_PROXY,
    early: limiter ? [addressRateLimit(limiter, logger)] : [],
    afterPrincipal: isApiPath => [
      ...(limiter ? [callerRateLimit(limiter, logger)] : []),
      // The route table's POSTs: a GraphQL POST is as often a read as a write, and replays would be stale.
      idempotencyKeys(idempotency, path => path !== '/graphql' && isApiPath(path), logger),
    ],
    readiness: () => {
      // Nothing to add without Redis: counters and keys are where they always are.
      if (!redis) return {};
      if (!redis.degraded) return { redis: 'ok' };
      return {
        redis: 'unreachable',
        degraded: true,
        detail:
          'Redis is unreachable: rate limits count per process (and idempotency keys stored in Redis are per process) until it is back.',
      };
    },
    close: async () => {
      await idempotency.close();
      await redis?.close();
    },
  };
}
