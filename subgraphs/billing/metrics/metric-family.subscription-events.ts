import type { MetricSql } from './metric-sql.js';

export const CANCELLATION_REASONS = [
  'customer_service',
  'low_quality',
  'missing_features',
  'switched_service',
  'too_complex',
  'too_expensive',
  'unused',
  'other',
] as const;

/**
 * What happened to subscriptions in each period (docs/metrics.md#subscription-events): new_subscriptions (created
 * in the period), churned_subscriptions (ended, or set to end, in it), canceled_subscriptions and one count per
 * cancellation reason (canceled in it), each within the requested dates; and churn_rate, Polar's rolling rate:
 * the subscriptions canceled in the 30 days before the period's start (for a yearly interval, in the year from
 * it) over those active at that window's start.
 *
 * The churn rate's counts at each window edge are running counts over one ordered timeline of starts, ends,
 * cancellations and window edges, rather than a scan of every subscription for every period; that timeline
 * (a sort of every start, end and cancellation) is the churn rate's alone, left out without it
 * (docs/metrics.md#cost).
 */
export function subscriptionEventsFamilySql(q: MetricSql): string {
  const within = (column: string) => `${column} >= ${q.boundStart} and ${column} <= ${q.boundEnd}`;
  const perReason = CANCELLATION_REASONS.map(
    reason => `count(*) filter (where reason = '${reason}') as canceled_subscriptions_${reason}`,
  ).join(', ');
  const tz = q.timezone;
  const window =
    q.window.interval === 'year'
      ? `(t at time zone ${tz}) as ws, ((t + interval '1 year') at time zone ${tz}) as we`
      : `((t - interval '30 days') at time zone ${tz}) as ws, (t at time zone ${tz}) as we`;
  const churn = q.asks('churn_rate');
  const rateCtes = () => `,
edges as (select t, ${window} from series),
timeline as (
  select started_at as at, 0 as ord, 's' as kind, null::timestamp as t from subs where started_at is not null
  union all select ended, 0, 'e', null from subs where ended is not null
  union all select canceled_at, 2, 'c', null from subs where canceled_at is not null
  union all select ws, 1, 'ws', t from edges
  union all select we, 1, 'we', t from edges
),
counted as (
  select kind, t,
    sum(case when kind = 's' then 1 else 0 end) over w as started,
    sum(case when kind = 'e' then 1 else 0 end) over w as ended,
    sum(case when kind = 'c' then 1 else 0 end) over w as canceled
  from timeline
  window w as (order by at, ord rows unbounded preceding)
),
rates as (
  select ws.t,
    ws.started + (select count(*) from subs where started_at is null) - ws.ended as active_at_start,
    we.canceled - ws.canceled as canceled_in_window
  from counted ws join counted we on we.kind = 'we' and we.t = ws.t
  where ws.kind = 'ws'
)`;
  const counts = `subs as (
  select s.created_at, s.started_at, coalesce(s.ended_at, s.ends_at) as ended, s.canceled_at,
    s.customer_cancellation_reason as reason
  from billing.subscriptions s
  where ${q.scope({ organization: 's.organization_id', product: 's.product_id', customer: 's.customer_id' })}
),
created as (select ${q.bucket('created_at')} as t, count(*) as n from subs where ${within('created_at')} group by 1),
churned as (select ${q.bucket('ended')} as t, count(*) as n from subs where ${within('ended')} group by 1),
canceled as (
  select ${q.bucket('canceled_at')} as t, count(*) as n, ${perReason}
  from subs where ${within('canceled_at')} group by 1
)${churn ? rateCtes() : ''}`;
  return subscriptionEventsAnswerSql(q, counts, churn);
}

/** The subscription events the rollup answers: all but the churn rate (docs/metrics.md#rollups). */
export const SUBSCRIPTION_EVENTS_ROLLUP_METRICS = [
  'new_subscriptions',
  'churned_subscriptions',
  'canceled_subscriptions',
  ...CANCELLATION_REASONS.map(reason => `canceled_subscriptions_${reason}`),
];

/**
 * The same counts from `billing.metric_rollup_subscriptions` (creations, ends and cancellations per reason, per
 * organization, UTC hour and product; metric-rollups.ts), one read of the range's hours.
 */
export function subscriptionEventsFromRollupSql(q: MetricSql): string {
  const reasons = CANCELLATION_REASONS.map(reason => `sum(r.canceled_${reason}) as canceled_subscriptions_${reason}`);
  const reasonColumns = CANCELLATION_REASONS.map(reason => `canceled_subscriptions_${reason}`);
  const counts = `events as (
  select ${q.bucket('r.hour')} as t, sum(r.created) as created, sum(r.churned) as churned, sum(r.canceled) as canceled,
    ${reasons.join(', ')}
  from billing.metric_rollup_subscriptions r
  where ${q.scope({ organization: 'r.organization_id', product: 'r.product_id' })}
    and r.hour >= ${q.boundStart} and r.hour <= ${q.boundEnd}
  group by 1
),
created as (select t, created as n from events),
churned as (select t, churned as n from events),
canceled as (select t, canceled as n, ${reasonColumns.join(', ')} from events)`;
  return subscriptionEventsAnswerSql(q, counts, false);
}

function subscriptionEventsAnswerSql(q: MetricSql, counts: string, churn: boolean): string {
  const reasonColumns = CANCELLATION_REASONS.map(
    reason => `coalesce(k.canceled_subscriptions_${reason}, 0) as canceled_subscriptions_${reason}`,
  ).join(', ');
  const churnColumn = `,
  case when r.active_at_start > 0 then r.canceled_in_window::numeric / r.active_at_start else 0 end as churn_rate`;
  return `with ${q.seriesCte()},
${counts}
select ${q.periodColumns('s.t')},
  coalesce(c.n, 0) as new_subscriptions,
  coalesce(ch.n, 0) as churned_subscriptions,
  coalesce(k.n, 0) as canceled_subscriptions, ${reasonColumns}${churn ? churnColumn : ''}
from series s
left join created c on c.t = s.t
left join churned ch on ch.t = s.t
left join canceled k on k.t = s.t${churn ? '\nleft join rates r on r.t = s.t' : ''}
order by s.t`;
}
