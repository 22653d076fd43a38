/**
 * Statements that the outbox relay (with the webhook ingest it calls, and its `pg_notify`), the job runner and the due-work sweep send on the billing connection on their own
 * schedule: counting the statements of one request leaves them out.
 */
export const isBackgroundWork = (query: string): boolean =>
  /pg_try_advisory_xact_lock|pg_notify|billing\.events|billing\.jobs|owner_notices|webhooks\.|select distinct organization_id from billing\.checkouts/.test(
    query,
  );

/**
 * Runs the billing jobs that are due until none is pending and none is held by the worker loop, so a
 * test that counts a request's statements does not count a job's (the `benefits.reconcile` jobs that
 * sales and subscription changes leave behind run on the same ORM connection).
 */
export async function settleJobs(billing: {
  jobs: { drain(): Promise<number> };
  orm: { em: { fork(): { execute<T>(sql: string): Promise<T> } } };
}): Promise<void> {
  for (let i = 0; i < 100; i++) {
    await billing.jobs.drain();
    const [{ n }] = await billing.orm.em
      .fork()
      .execute<{ n: string }[]>(`select count(*) as n from billing.jobs where status = 'pending' and run_at <= now()`);
    if (Number(n) === 0) return;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}
