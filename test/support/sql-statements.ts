import { type Clock, systemClock } from '../../kit/clock.js';
import { until } from './until.js';

/**
 * Statements that the outbox relay (with the webhook ingest it calls, and its `pg_notify`), the job runner and the due-work sweep send on the billing connection on their own
 * schedule: counting the statements of one request leaves them out.
 */
export const isBackgroundWork = (query: string): boolean =>
  /pg_try_advisory_xact_lock|pg_notify|billing\.events|billing\.jobs|owner_notices|webhooks\.|select distinct organization_id from billing\.checkouts/.test(
    query,
  );

/**
 * Runs the billing jobs that are due until none is pending, so a test that counts a request's statements
 * does not count a job's (the `benefits.reconcile` jobs that sales and subscription changes leave behind
 * run on the same ORM connection). A job a request enqueued for itself (held by this runner until the
 * request runs it after its commit) is pending and not yet drainable: the count waits for it too. Due by
 * the file's clock (`clock`, the one its stack runs on), not PostgreSQL's `now()`: on a shared stack another
 * file's job can be due by the wall clock and never by this file's. Up to a minute.
 */
export async function settleJobs(
  billing: {
    jobs: { drain(): Promise<number> };
    orm: { em: { fork(): { execute<T>(sql: string, params: unknown[]): Promise<T> } } };
  },
  clock: Clock = systemClock,
): Promise<void> {
  const settled = await until(async () => {
    await billing.jobs.drain();
    const [{ n }] = await billing.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from billing.jobs where status = 'pending' and run_at <= ?`, [
        clock.now(),
      ]);
    return Number(n) === 0;
  }, 60_000);
  if (!settled) throw new Error('billing jobs were still pending after a minute of draining');
}
