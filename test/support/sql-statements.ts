/**
 * Statements that the outbox relay, the job runner and the due-work sweep send on the billing connection on their own
 * schedule: counting the statements of one request leaves them out.
 */
export const isBackgroundWork = (query: string): boolean =>
  /pg_try_advisory_xact_lock|billing\.events|billing\.jobs|webhooks\.|select distinct organization_id from billing\.checkouts/.test(
    query,
  );
