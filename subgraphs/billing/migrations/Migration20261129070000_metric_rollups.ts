import { Migration } from '@mikro-orm/migrations';
import { CANCELLATION_REASONS } from '../metrics/metric-family.subscription-events.js';

/**
 * The reasons a cancellation records (the check on `subscriptions.customer_cancellation_reason`), one column each:
 * the family's own list, so the rollup counts what the family counts (a reason added later needs a migration
 * adding its column `if not exists`).
 */
export const REASONS = CANCELLATION_REASONS;

/**
 * The metrics' rollups (docs/metrics.md#rollups): per organization, UTC hour and the dimensions the filters need,
 * the paid orders, the checkouts, and the subscriptions' changes (deltas of the active count and of MRR, and the
 * starts, ends and cancellations). This migration makes the tables and the functions the next one's triggers use
 * (same transaction), which also lists the organizations whose earlier rows await the backfill.
 *
 * `metric_rollup_ready(orgs)` is the one rule every change goes through: an organization absent from
 * `metric_rollup_state` is new (it had no rows when the triggers came), so it is ready at once; a listed one
 * not ready awaits its backfill, which holds the organization's advisory lock exclusively while it reads its
 * rows, so a write waits (shared lock) rather than being counted twice or not at all.
 */
export class Migration20261129070000_metric_rollups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."metric_rollup_state" (
      "organization_id" uuid not null primary key, "ready" boolean not null);`);
    this.addSql(`create table if not exists "billing"."metric_rollup_orders" (
      "organization_id" uuid not null, "hour" timestamptz not null, "product_id" uuid null,
      "one_time" boolean not null, "currency" text not null,
      "orders" bigint not null, "revenue" bigint not null, "net_revenue" bigint not null);`);
    this.addSql(`create unique index if not exists "metric_rollup_orders_key" on "billing"."metric_rollup_orders"
      ("organization_id", "hour", "product_id", "one_time", "currency") nulls not distinct;`);
    this.addSql(`create table if not exists "billing"."metric_rollup_checkouts" (
      "organization_id" uuid not null, "hour" timestamptz not null, "product_id" uuid not null,
      "product_ids" uuid[] not null, "checkouts" bigint not null, "succeeded" bigint not null);`);
    this.addSql(`create unique index if not exists "metric_rollup_checkouts_key" on "billing"."metric_rollup_checkouts"
      ("organization_id", "hour", "product_id", "product_ids");`);
    this.addSql(`create table if not exists "billing"."metric_rollup_subscriptions" (
      "organization_id" uuid not null, "hour" timestamptz not null, "product_id" uuid not null,
      "active" bigint not null, "committed" bigint not null, "mrr" bigint not null, "committed_mrr" bigint not null,
      "trial_mrr" bigint not null, "trial_committed_mrr" bigint not null,
      "created" bigint not null, "churned" bigint not null, "canceled" bigint not null,
      ${REASONS.map(r => `"canceled_${r}" bigint not null`).join(', ')});`);
    this.addSql(`create unique index if not exists "metric_rollup_subscriptions_key"
      on "billing"."metric_rollup_subscriptions" ("organization_id", "hour", "product_id");`);

    this.addSql(`create or replace function "billing"."metric_rollup_ready"(orgs uuid[]) returns uuid[]
      language plpgsql as $$
      declare answer uuid[];
      begin
        insert into billing.metric_rollup_state (organization_id, ready)
          select distinct o, true from unnest(orgs) o order by 1 on conflict do nothing;
        perform pg_advisory_xact_lock_shared(hashtext('billing.metric_rollups'), hashtext(o::text))
          from (select distinct o from unnest(orgs) o order by o) x;
        select array_agg(organization_id) into answer from billing.metric_rollup_state
          where organization_id = any(orgs) and ready;
        return coalesce(answer, '{}');
      end $$;`);

    // A subscription's monthly amount net of its discount, before tax: the subscriptions family's NET_AMOUNT and
    // monthlyAmountSql (subgraphs/billing/metrics/), the same text; a missing interval counts as 0, as a sum does.
    this.addSql(`create or replace function "billing"."metric_rollup_mrr"(s billing.subscriptions, d billing.discounts)
      returns bigint language sql immutable as $$
      select coalesce((case s.recurring_interval
        when 'year' then round(n.net::numeric * 1 / (12 * s.recurring_interval_count))
        when 'month' then round(n.net::numeric * 1 / (1 * s.recurring_interval_count))
        when 'week' then round(n.net::numeric * 52 / (12 * s.recurring_interval_count))
        when 'day' then round(n.net::numeric * 365 / (12 * s.recurring_interval_count)) end)::bigint, 0)
      from (select s.amount - case
        when s.amount <= 0 or d.id is null then 0
        when d.type = 'percentage' then least(s.amount, round(s.amount::numeric * d.basis_points / 10000)::bigint)
        when lower(d.currency) = lower(s.currency) then least(s.amount, d.amount)
        else 0 end as net) n
      $$;`);

    // What one subscription adds to the hours: the subscriptions family's changes (active from its start's period
    // until its end's; MRR from the later of its start and its trial's end; trial MRR from its start until the
    // earlier of its trial's end and its end), each stop placed no earlier than its start, so that a stop in the
    // same period as its start cancels it there, as the family leaves such a subscription out; and its creation,
    // end and cancellation for the events. Hours at infinity (no end) never fall in a range and are left out.
    this.addSql(`create or replace function "billing"."metric_rollup_subscription_rows"(s billing.subscriptions, mrr bigint)
      returns table (hour timestamptz, active int, committed int, mrr_change bigint, committed_mrr bigint,
        trial_mrr bigint, trial_committed_mrr bigint, created int, churned int, canceled int, reason text)
      language sql stable as $$
      with h as (
        select coalesce(date_trunc('hour', s.started_at, 'UTC'), '-infinity') as a,
          coalesce(date_trunc('hour', coalesce(s.ended_at, s.ends_at), 'UTC'), 'infinity') as e,
          date_trunc('hour', s.trial_end, 'UTC') as tb,
          (s.ended_at is null and s.ends_at is null)::int as o
      ),
      k as (select a, e, tb, o, greatest(a, tb) as m, coalesce(tb > a, false) as trial from h)
      select * from (
        select a, 1, o, 0::bigint, 0::bigint, case when trial then mrr else 0 end, case when trial then mrr * o else 0 end,
          0, 0, 0, null::text from k
        union all select m, 0, 0, mrr, mrr * o, 0, 0, 0, 0, 0, null from k
        union all select greatest(a, e), -1, -o, 0, 0, 0, 0, 0, 0, 0, null from k
        union all select greatest(m, e), 0, 0, -mrr, -mrr * o, 0, 0, 0, 0, 0, null from k
        union all select greatest(a, least(tb, e)), 0, 0, 0, 0, -mrr, -mrr * o, 0, 0, 0, null from k where trial
        union all select date_trunc('hour', s.created_at, 'UTC'), 0, 0, 0, 0, 0, 0, 1, 0, 0, null
        union all select e, 0, 0, 0, 0, 0, 0, 0, 1, 0, null from k where e <> 'infinity'
        union all select date_trunc('hour', s.canceled_at, 'UTC'), 0, 0, 0, 0, 0, 0, 0, 0, 1, s.customer_cancellation_reason
          where s.canceled_at is not null
      ) x where x.a <> 'infinity'
      $$;`);
  }

  override async down(): Promise<void> {
    for (const fn of [
      'metric_rollup_subscription_rows(billing.subscriptions, bigint)',
      'metric_rollup_mrr(billing.subscriptions, billing.discounts)',
      'metric_rollup_ready(uuid[])',
    ])
      this.addSql(`drop function if exists "billing".${fn};`);
    for (const table of ['subscriptions', 'checkouts', 'orders', 'state'])
      this.addSql(`drop table if exists "billing"."metric_rollup_${table}";`);
  }
}
