import { Redis } from 'ioredis';
import type { Logger } from '../../../kit/logger.js';

/** While Redis is failing, one request per this interval tries it again; the others go straight to memory. */
const RETRY_INTERVAL_MS = 1000;

/**
 * The REST adapter's one Redis client, and what it knows about Redis's health. Commands never queue
 * while the connection is down (`enableOfflineQueue: false`) and time out quickly, so a request never
 * waits on a dead Redis: its caller falls back to per-process state. The transitions are logged once
 * each way, and `degraded` is what /readyz reports.
 */
export class RedisConnection {
  readonly client: Redis;
  private failing = false;
  private lastAttempt = 0;

  /** `commandTimeoutMs`: how long one command may take before the caller falls back (REDIS_COMMAND_TIMEOUT_MS). */
  constructor(
    url: string,
    readonly keyPrefix: string,
    private readonly logger: Logger,
    commandTimeoutMs = 250,
  ) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 2000,
      retryStrategy: times => Math.min(times * 100, 2000),
    });
    this.client.on('ready', () => this.succeeded());
    this.client.on('error', error => this.failed(error));
    this.client.on('close', () => this.failed(new Error('connection closed')));
  }

  /** False while Redis is unreachable and the service runs on per-process state. */
  get degraded(): boolean {
    return this.failing || this.client.status !== 'ready';
  }

  /** Whether this call should try Redis: always when healthy, once a second while failing. */
  shouldTry(now = Date.now()): boolean {
    if (this.client.status !== 'ready') return false;
    if (!this.failing) return true;
    if (now - this.lastAttempt < RETRY_INTERVAL_MS) return false;
    this.lastAttempt = now;
    return true;
  }

  succeeded(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info('Redis reachable again: rate limits and idempotency keys are shared between processes again');
  }

  failed(error: unknown): void {
    this.lastAttempt = Date.now();
    if (this.failing) return;
    this.failing = true;
    this.logger.warn(
      { err: error },
      'Redis unreachable: rate limits (and idempotency keys when stored there) fall back to per-process memory',
    );
  }

  async close(): Promise<void> {
    this.client.removeAllListeners('close');
    this.client.disconnect();
  }
}
