/**
 * Billing's queues as the metrics scrape reads them (kit/metrics/scrape-sources.ts, docs/observability.md):
 * pending jobs, and outbox events not yet handed to webhooks. Both counts walk a partial or leading index
 * over pending rows only; the age is how long the oldest due item has waited past its due time.
 */
export const BILLING_QUEUE_DEPTH_SQL = `
  select 'billing.jobs' as queue, count(*) as size,
         greatest(0, extract(epoch from now() - min(run_at) filter (where run_at <= now()))) as oldest_age_seconds
    from billing.jobs where status = 'pending'
  union all
  select 'billing.outbox', count(*), greatest(0, extract(epoch from now() - min(created_at)))
    from billing.events where dispatched_at is null`;
