/**
 * The delivery queue as the metrics scrape reads it (kit/metrics/scrape-sources.ts, docs/observability.md):
 * pending messages (the partial index `messages_pending_due_index`), and how long the oldest due one has
 * waited past its `next_attempt_at`.
 */
export const WEBHOOKS_QUEUE_DEPTH_SQL = `
  select 'webhooks.delivery' as queue, count(*) as size,
         greatest(0, extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now()))) as oldest_age_seconds
    from webhooks.messages where status = 'pending'`;
