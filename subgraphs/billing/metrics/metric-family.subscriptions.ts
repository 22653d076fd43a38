import type { MetricSql } from './metric-sql.js';
import { monthlyAmountSql } from './metric-window.js';

/** The subscription's recurring amount net of its discount, before tax (`discountAmount` of kit/money, in SQL). */
const NET_AMOUNT = `(s.amount - case
  when s.amount <= 0 or d.id is null then 0
  when d.type = 'percentage' then least(s.amount, round(s.amount::numeric * d.basis_points / 10000)::bigint)
  when lower(d.currency) = lower(s.currency) then least(s.amount, d.amount)
  else 0 end)`;

/** Each customer's live subscriptions merged into spans of time, and where each span starts and stops (ARPU's). */
const CUSTOMER_SPANS = `reach as (
  select customer_id, a, e,
    max(e) over (partition by customer_id order by a, e rows between unbounded preceding and 1 preceding) as r
  from live
),
islands as (
  select customer_id, a, e,
    sum(case when r is not null and a <= r then 0 else 1 end)
      over (partition by customer_id order by a, e rows unbounded preceding) as island
  from reach
),
spans as (select min(a) as a, max(e) as e from islands group by customer_id, island),
customer_changes as (
  select a as at, count(*) as customers from spans group by a
  union all
  select e, -count(*) from spans group by e
),
`;

/** The changes of the counts and the sums, with the customers' changes beside them. */
const CHANGES_AND_CUSTOMERS = `(
    select *, 0 as customers from changes
    union all
    select at, 0, 0, 0, 0, 0, 0, customers from customer_changes
  ) x`;

/**
 * Active subscriptions and recurring revenue per period (docs/metrics.md#subscriptions): active_subscriptions,
 * committed_subscriptions, monthly_recurring_revenue and its committed and trial variants, average_revenue_per_user.
 *
 * Polar's definitions, on period starts `t`: a subscription is active in `t` when its start's period is at or
 * before `t` (or it has no start) and the period of its end (`ended_at`, else `ends_at`) is after `t`; committed
 * when it is active and has no end; its monthly amount (net of discount, normalised from its interval) counts as
 * MRR from the period its trial ends in, as trial MRR before it. ARPU is MRR over the distinct customers active
 * in the period, rounded.
 *
 * Rather than joining every period to every subscription (periods × subscriptions rows), each subscription is
 * turned into the periods where its contributions start and stop, and each period's value is the running sum
 * of those changes: one pass over the subscriptions. A customer's subscriptions are first merged into spans of
 * time, so a customer is counted once per period: for ARPU alone, and the costliest part (a sort of every live
 * subscription by customer), so it is left out when ARPU is not needed (docs/metrics.md#cost).
 */
export function subscriptionsFamilySql(q: MetricSql): string {
  const ends = 'coalesce(s.ended_at, s.ends_at)';
  const arpu = q.asks('average_revenue_per_user');
  const changes = `subs as (
  select s.customer_id,
    coalesce(${q.bucket('s.started_at')}, '-infinity'::timestamp) as a,
    coalesce(${q.bucket(ends)}, 'infinity'::timestamp) as e,
    ${q.bucket('s.trial_end')} as tb,
    (case when ${ends} is null then 1 else 0 end) as o,
    ${monthlyAmountSql(NET_AMOUNT, 's.recurring_interval', 's.recurring_interval_count')} as mrr
  from billing.subscriptions s
  left join billing.discounts d on d.id = s.discount_id
  where ${q.scope({ organization: 's.organization_id', product: 's.product_id', customer: 's.customer_id' })}
    and (s.started_at is null or s.started_at <= ${q.boundEnd})
    and (${ends} is null or ${ends} >= ${q.boundStart})
),
live as (
  select customer_id, a, e, o, mrr,
    case when tb > a then tb else a end as m,
    case when tb > a then mrr else 0 end as tm,
    least(coalesce(tb, e), e) as te
  from subs where a < e
),
changes as (
  select a as at, count(*) as active, sum(o) as committed, 0::numeric as mrr, 0::numeric as committed_mrr,
    sum(tm) as trial_mrr, sum(tm * o) as trial_committed_mrr
  from live group by a
  union all
  select m, 0, 0, sum(mrr), sum(mrr * o), 0, 0 from live where m < e group by m
  union all
  select te, 0, 0, 0, 0, -sum(tm), -sum(tm * o) from live where tm <> 0 group by te
  union all
  select e, -count(*), -sum(o), -sum(mrr) filter (where m < e), coalesce(-sum(mrr * o) filter (where m < e), 0), 0, 0
  from live group by e
),
${arpu ? CUSTOMER_SPANS : ''}deltas as (
  select greatest(at, ${q.seriesStart}) as t, sum(active) as active, sum(committed) as committed, sum(mrr) as mrr,
    sum(committed_mrr) as committed_mrr, sum(trial_mrr) as trial_mrr, sum(trial_committed_mrr) as trial_committed_mrr,
    sum(customers) as customers
  from ${arpu ? CHANGES_AND_CUSTOMERS : '(select *, 0 as customers from changes) x'}
  where at <= ${q.seriesEnd}
  group by 1
)`;
  return subscriptionsAnswerSql(q, changes, arpu);
}

/** The subscriptions' metrics the rollup answers: all but ARPU, which counts distinct customers (docs/metrics.md#rollups). */
export const SUBSCRIPTIONS_ROLLUP_METRICS = [
  'active_subscriptions',
  'committed_subscriptions',
  'monthly_recurring_revenue',
  'committed_monthly_recurring_revenue',
  'trial_monthly_recurring_revenue',
  'trial_committed_monthly_recurring_revenue',
];

/**
 * The same running sums from `billing.metric_rollup_subscriptions`, whose rows are these changes already, per
 * organization, UTC hour and product (the migration's `metric_rollup_subscription_rows` places each one; hours
 * before the range land on its first period, as the changes above do).
 */
export function subscriptionsFromRollupSql(q: MetricSql): string {
  const changes = `deltas as (
  select greatest(${q.bucket('r.hour')}, ${q.seriesStart}) as t, sum(r.active) as active, sum(r.committed) as committed,
    sum(r.mrr) as mrr, sum(r.committed_mrr) as committed_mrr, sum(r.trial_mrr) as trial_mrr,
    sum(r.trial_committed_mrr) as trial_committed_mrr
  from billing.metric_rollup_subscriptions r
  where ${q.scope({ organization: 'r.organization_id', product: 'r.product_id' })} and r.hour <= ${q.boundEnd}
  group by 1
)`;
  return subscriptionsAnswerSql(q, changes, false);
}

/** The periods' running sums of `deltas` (and of its customers, for ARPU). */
function subscriptionsAnswerSql(q: MetricSql, changes: string, arpu: boolean): string {
  return `with ${q.seriesCte()},
${changes},
running as (
  select s.t,
    coalesce(sum(d.active) over w, 0) as active, coalesce(sum(d.committed) over w, 0) as committed,
    coalesce(sum(d.mrr) over w, 0) as mrr, coalesce(sum(d.committed_mrr) over w, 0) as committed_mrr,
    coalesce(sum(d.trial_mrr) over w, 0) as trial_mrr,
    coalesce(sum(d.trial_committed_mrr) over w, 0) as trial_committed_mrr${arpu ? ',\n    coalesce(sum(d.customers) over w, 0) as customers' : ''}
  from series s left join deltas d on d.t = s.t
  window w as (order by s.t)
)
select ${q.periodColumns('t')},
  active as active_subscriptions,
  committed as committed_subscriptions,
  mrr as monthly_recurring_revenue,
  committed_mrr as committed_monthly_recurring_revenue,
  trial_mrr as trial_monthly_recurring_revenue,
  trial_committed_mrr as trial_committed_monthly_recurring_revenue${arpu ? ',\n  case when customers = 0 then 0 else round(mrr / customers) end as average_revenue_per_user' : ''}
from running order by t`;
}
