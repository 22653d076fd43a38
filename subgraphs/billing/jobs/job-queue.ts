import { hostname } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import { numbered } from '../../../kit/database/read/read-model.js';

/**
 * Durable jobs in `billing.jobs` (DESIGN.md: an outbox claimed with FOR UPDATE SKIP LOCKED; pg-boss
 * does not install). A job is enqueued in the same transaction as the change that calls for it, is
 * unique by its idempotency key (enqueueing twice is a no-op), and is claimed with a lease: a worker
 * that dies leaves it to be claimed again once the lease is over, so every job runs to completion at
 * least once. Handlers must therefore be idempotent (they are: processor keys, unique constraints).
 * Checkout fulfilment uses it now; the recurring engine's renewals will too.
 */
export interface JobRow {
  id: string;
  kind: string;
  idempotency_key: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void>;

// How long a claimed job is its worker's: a worker that died is replaced after this (fulfilments take well under a second).
const LEASE_SECONDS = 30;

/** Adds a job to the caller's transaction (`em` must be inside `transactional`); a known key is a no-op. */
export async function enqueueJob(
  em: EntityManager,
  job: { kind: string; key: string; payload: Record<string, unknown>; runAt: Date; maxAttempts?: number },
): Promise<void> {
  await em.execute(
    `insert into billing.jobs (id, kind, idempotency_key, payload, status, attempts, max_attempts, run_at, created_at)
     values (gen_random_uuid(), ?, ?, ?::jsonb, 'pending', 0, ?, ?, ?) on conflict (idempotency_key) do nothing`,
    [job.kind, job.key, JSON.stringify(job.payload), job.maxAttempts ?? 10, job.runAt, job.runAt],
  );
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly worker = `${hostname()}:${process.pid}`;

  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Runs the job with this key now if nobody holds it (right after the commit that enqueued it). */
  async runNow(key: string): Promise<void> {
    const job = await this.claim('idempotency_key = ?', [key]);
    if (job) await this.execute(job);
  }

  /** Claims and runs due jobs until none is left. */
  async drain(): Promise<number> {
    let n = 0;
    for (;;) {
      const job = await this.claim('run_at <= ?', [this.clock.now()]);
      if (!job) return n;
      await this.execute(job);
      n++;
    }
  }

  /** Polls for due jobs (left by a crash, or scheduled for later) every `intervalMs`. */
  start(intervalMs = 1000): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.drain()
        .then(() => undefined)
        .catch(error => this.logger?.error({ err: error }, 'job worker failed'))
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async claim(condition: string, values: unknown[]): Promise<JobRow | null> {
    const now = this.clock.now();
    const rows = await this.query<JobRow>(
      `update billing.jobs set attempts = attempts + 1, locked_by = ?, locked_until = ?::timestamptz + make_interval(secs => ?)
       where id = (select id from billing.jobs where status = 'pending' and ${condition}
                   and (locked_until is null or locked_until < ?) order by run_at limit 1 for update skip locked)
       returning id, kind, idempotency_key, payload, attempts, max_attempts`,
      [this.worker, now, LEASE_SECONDS, ...values, now],
    );
    return rows[0] ?? null;
  }

  /**
   * The queue's own statements go to the pool directly, not through the ORM connection: the worker
   * polls every second, and that connection is where statements are logged and counted (tests count
   * a request's statements there).
   */
  private async query<T>(sql: string, values: unknown[]): Promise<T[]> {
    const pool = (await (
      this.orm.em.getConnection() as unknown as { getNativeClient(): Promise<unknown> }
    ).getNativeClient()) as {
      query(text: string, values: unknown[]): Promise<{ rows: T[] }>;
    };
    return (await pool.query(numbered(sql), values)).rows;
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, job);
      await this.query(
        `update billing.jobs set status = 'done', finished_at = ?, locked_until = null, last_error = null where id = ?`,
        [this.clock.now(), job.id],
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger?.warn({ err: error, job: job.idempotency_key }, 'job failed; it will be retried');
      const exhausted = job.attempts >= job.max_attempts;
      // Backoff: 2^attempts seconds (capped at an hour) before the next claim.
      const delay = Math.min(3600, 2 ** job.attempts);
      await this.query(
        `update billing.jobs set status = ?, last_error = ?, locked_until = null,
         run_at = ?::timestamptz + make_interval(secs => ?) where id = ?`,
        [exhausted ? 'failed' : 'pending', message.slice(0, 2000), this.clock.now(), delay, job.id],
      );
    }
  }
}
