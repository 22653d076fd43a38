/**
 * Statements that the outbox relay and the job runner send on the billing connection on their own
 * schedule: counting the statements of one request leaves them out.
 */
export const isBackgroundWork = (query: string): boolean =>
  /pg_try_advisory_xact_lock|billing\.events|billing\.jobs|webhooks\./.test(query);
