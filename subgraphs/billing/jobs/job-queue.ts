import { hostname } from 'node:os';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import { metricsOn, taskDuration, taskExecutions, taskRetries } from '../../../kit/metrics/metrics.js';
import { backgroundWork, type Enrolment } from '../../../kit/background/background-work.js';
import { insertJob, type JobRow, JobQueries, type NewJob } from './job.queries.js';

export type { JobRow } from './job.queries.js';

/**
 * Durable jobs in `billing.jobs` (docs/reliability.md#transactional-outbox: an outbox claimed with FOR UPDATE SKIP LOCKED; pg-boss
 * does not install). A job is enqueued in the same transaction as the change that calls for it, is
 * unique by its idempotency key (enqueueing twice is a no-op), and is claimed with a lease: a worker
 * that dies leaves it to be claimed again once the lease is over, so every job runs to completion at
 * least once. Handlers must therefore be idempotent (they are: processor keys, unique constraints).
 * Checkout fulfilment uses it now; the recurring engine's renewals will too.
 */
export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void>;

// How long a claimed job is its worker's: a worker that died is replaced after this (fulfilments take well under a second).
const LEASE_SECONDS = 30;
/** The topic billing.jobs' trigger notifies when a job is queued or rescheduled (kit/database/work-signals.ts). */
export const JOBS_TOPIC = 'billing.jobs';

/**
 * Adds a job to the caller's transaction (`em` must be inside `transactional`); a known key is a no-op.
 * `heldBy` (a runner's `worker`) leases it to that runner from the start, for a caller that runs it
 * itself right after the commit and answers only then (`runNow`): the other runners' loops, woken by
 * the commit, leave it to that caller, and take it over only if the lease runs out (the caller died).
 */
export async function enqueueJob(em: EntityManager, job: NewJob): Promise<void> {
  await insertJob(em, job, LEASE_SECONDS);
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly loop: Enrolment;
  /** The job loop's drain in flight in this process (never rejects). */
  private draining: Promise<unknown> = Promise.resolve();
  /** This runner's name in `locked_by` (a job's `heldBy`). */
  readonly worker = `${hostname()}:${process.pid}`;
  private readonly queries: JobQueries;

  constructor(
    orm: MikroORM,
    private readonly clock: Clock,
    /** The `environment` label of its metrics (docs/observability.md). */
    private readonly environment: string,
    private readonly logger?: Logger,
  ) {
    this.queries = new JobQueries(orm);
    this.loop = backgroundWork.enrol({
      name: 'billing.jobs',
      topics: [JOBS_TOPIC],
      runDue: async () => {
        const drained = this.runDue();
        this.draining = drained.catch(() => 0);
        await drained;
        return { worked: false, nextDueInMs: await this.nextDueInMs() };
      },
      failed: error => this.logger?.error({ err: error }, 'job worker failed'),
      retryMs: 1000,
      errorPauseMs: 1000,
      clock,
    });
  }

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /**
   * Runs the job with this key now if nobody else holds it (right after the commit that enqueued it;
   * a job enqueued `heldBy` this runner is its own to run).
   */
  async runNow(key: string): Promise<void> {
    const job = await this.claim('idempotency_key = ?', [key], true);
    if (job) return this.execute(job);
    // Held: by this process's job loop, woken by the commit that queued it (a caller that must answer
    // after the job, as the sandbox clock's advance, then waits for that drain, as if it had run the job
    // itself), or by another process (not waited for), or done already.
    await this.draining;
  }

  /**
   * Claims and runs due jobs until none is left, and answers once this process's job loop has finished
   * what it claimed first (woken by the same commit or clock jump): whoever drains sees every due job
   * done, not one still running in the loop.
   */
  async drain(): Promise<number> {
    const n = await this.runDue();
    await this.draining;
    return n;
  }

  /** Claims and runs due jobs until none is left (the loop's pass). */
  private async runDue(): Promise<number> {
    let n = 0;
    for (;;) {
      const job = await this.claim('run_at <= ?', [this.clock.now()]);
      if (!job) return n;
      await this.execute(job);
      n++;
    }
  }

  /**
   * Runs due jobs on the background-work spine (kit/background/): at start (what a crash left behind), when a job is queued or rescheduled
   * (the jobs trigger notifies JOBS_TOPIC, by any process on this database), when the next one falls
   * due (`run_at`, or a dead worker's lease running out) and when the clock jumps (tests). With nothing
   * due it does not query. `databaseUrl`: where to listen (none: only this process's own wake-ups).
   */
  start(databaseUrl?: string): Promise<void> {
    return this.loop.run(databaseUrl);
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Until the earliest pending job may be claimed (its run_at, or the end of its lease); null: none. */
  private async nextDueInMs(): Promise<number | null> {
    const at = await this.queries.nextDueAt();
    return at ? new Date(at).getTime() - this.clock.now().getTime() : null;
  }

  /** One due job leased to this runner; `own`: a job this runner holds already (`heldBy`) may be taken too. */
  private claim(condition: string, values: unknown[], own = false): Promise<JobRow | null> {
    return this.queries.claim(
      { worker: this.worker, now: this.clock.now(), seconds: LEASE_SECONDS },
      condition,
      values,
      own,
    );
  }

  /** Job metrics, labelled by the job's kind (a fixed name, never its payload or key). */
  private count(job: JobRow, status: 'success' | 'failure', started: number, retried = false): void {
    if (!metricsOn()) return;
    const labels = { environment: this.environment, queue: JOBS_TOPIC, task_name: job.kind };
    taskExecutions.inc({ ...labels, status });
    taskDuration.observe(labels, (performance.now() - started) / 1000);
    if (retried) taskRetries.inc(labels);
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const started = performance.now();
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload, job);
      await this.queries.markDone(job.id, this.clock.now());
      this.count(job, 'success', started);
    } catch (error) {
      this.count(job, 'failure', started, job.attempts < job.max_attempts);
      const message = error instanceof Error ? error.message : String(error);
      this.logger?.warn({ err: error, job: job.idempotency_key }, 'job failed; it will be retried');
      const exhausted = job.attempts >= job.max_attempts;
      // Backoff: 2^attempts seconds (capped at an hour) before the next claim.
      const delay = Math.min(3600, 2 ** job.attempts);
      await this.queries.markFailed(job.id, {
        status: exhausted ? 'failed' : 'pending',
        message: message.slice(0, 2000),
        now: this.clock.now(),
        delaySeconds: delay,
      });
    }
  }
}
