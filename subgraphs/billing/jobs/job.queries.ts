import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { numbered } from '../../../kit/database/read/read-model.js';

/** A claimed job as the queue's statements return it. */
export interface JobRow {
  id: string;
  kind: string;
  idempotency_key: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/** What `enqueueJob` (jobs/job-queue.ts) writes: a job, leased from the start when `heldBy` is given. */
export interface NewJob {
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  runAt: Date;
  maxAttempts?: number;
  heldBy?: string;
}

/** Inserts the job in the caller's transaction; a known idempotency key is a no-op. */
export async function insertJob(em: EntityManager, job: NewJob, leaseSeconds: number): Promise<void> {
  await em.execute(
    `insert into billing.jobs (id, kind, idempotency_key, payload, status, attempts, max_attempts, run_at, created_at,
                               locked_by, locked_until)
     values (gen_random_uuid(), ?, ?, ?::jsonb, 'pending', 0, ?, ?, ?, ?,
             case when ?::text is null then null else ?::timestamptz + make_interval(secs => ?) end)
     on conflict (idempotency_key) do nothing`,
    [
      job.kind,
      job.key,
      JSON.stringify(job.payload),
      job.maxAttempts ?? 10,
      job.runAt,
      job.runAt,
      job.heldBy ?? null,
      job.heldBy ?? null,
      job.runAt,
      leaseSeconds,
    ],
  );
}

/**
 * The runner's statements on `billing.jobs`. They go to the pool directly, not through the ORM
 * connection: the worker runs them in the background, and that connection is where statements are
 * logged and counted (tests count a request's statements there).
 */
export class JobQueries {
  constructor(private readonly orm: MikroORM) {}

  /** The earliest moment a pending job may be claimed (its run_at, or the end of its lease); null: none. */
  async nextDueAt(): Promise<Date | string | null> {
    const [row] = await this.query<{ at: Date | string | null }>(
      `select min(greatest(run_at, coalesce(locked_until, run_at))) as at from billing.jobs where status = 'pending'`,
      [],
    );
    return row?.at ?? null;
  }

  /**
   * Leases one due pending job matching `condition` to `worker` (skipping locked rows); `own`: a job
   * `worker` holds already and has not started may be taken too.
   */
  async claim(
    lease: { worker: string; now: Date; seconds: number },
    condition: string,
    values: unknown[],
    own: boolean,
  ): Promise<JobRow | null> {
    const { worker, now, seconds } = lease;
    const rows = await this.query<JobRow>(
      `update billing.jobs set attempts = attempts + 1, locked_by = ?, locked_until = ?::timestamptz + make_interval(secs => ?)
       where id = (select id from billing.jobs where status = 'pending' and ${condition}
                   and (locked_until is null or locked_until < ?${own ? ' or (locked_by = ? and attempts = 0)' : ''})
                   order by run_at limit 1 for update skip locked)
       returning id, kind, idempotency_key, payload, attempts, max_attempts`,
      [worker, now, seconds, ...values, now, ...(own ? [worker] : [])],
    );
    return rows[0] ?? null;
  }

  async markDone(id: string, now: Date): Promise<void> {
    await this.query(
      `update billing.jobs set status = 'done', finished_at = ?, locked_until = null, last_error = null where id = ?`,
      [now, id],
    );
  }

  /** Releases a failed job: pending again `delaySeconds` after `now`, or failed for good. */
  async markFailed(
    id: string,
    failure: { status: 'failed' | 'pending'; message: string; now: Date; delaySeconds: number },
  ): Promise<void> {
    await this.query(
      `update billing.jobs set status = ?, last_error = ?, locked_until = null,
         run_at = ?::timestamptz + make_interval(secs => ?) where id = ?`,
      [failure.status, failure.message, failure.now, failure.delaySeconds, id],
    );
  }

  private async query<T>(sql: string, values: unknown[]): Promise<T[]> {
    const pool = (await (
      this.orm.em.getConnection() as unknown as { getNativeClient(): Promise<unknown> }
    ).getNativeClient()) as {
      query(text: string, values: unknown[]): Promise<{ rows: T[] }>;
    };
    return (await pool.query(numbered(sql), values)).rows;
  }
}
