import type { MetricSql } from './metric-sql.js';

/**
 * Paid orders per period (docs/metrics.md#orders): an order counts from its creation, with its amount net of
 * discount and before tax (`subtotal − discount`) as revenue, and that minus the platform fee and what was refunded
 * of it (before tax) as net revenue; refunds count in the order's period, as Polar's do.
 *
 * orders, revenue, net_revenue; cumulative_revenue and net_cumulative_revenue (every paid order since the first,
 * through the period); average_order_value and net_average_order_value (rounded up to a whole minor unit);
 * one_time_products* (orders of no subscription); new_subscriptions_revenue* (orders of a subscription started in
 * the same period) and renewed_subscriptions* (orders of a subscription started in an earlier one: their count is
 * of orders). Amounts of every currency are added as they are, Polar's rate when it has no exchange rate for
 * them (docs/metrics.md#currencies).
 *
 * The cumulative metrics alone read every paid order before the window (`baseline`, most of the statement's time
 * on a long history): without either of them it is left out (docs/metrics.md#cost).
 */
export function ordersFamilySql(q: MetricSql): string {
  const scope = q.scope({ organization: 'o.organization_id', product: 'o.product_id', customer: 'o.customer_id' });
  const paid = "o.status in ('paid', 'refunded', 'partially_refunded')";
  const baseline = `select coalesce(sum(o.subtotal_amount - o.discount_amount), 0) as revenue,
    coalesce(sum(o.subtotal_amount - o.discount_amount - o.platform_fee_amount - o.refunded_amount), 0) as net
  from billing.orders o
  where ${scope} and ${paid} and o.created_at < ${q.boundStart}`;
  const periods = `paid as (
  select ${q.bucket('o.created_at')} as b, ${q.bucket('sub.started_at')} as sb, o.subscription_id,
    (o.subtotal_amount - o.discount_amount) as revenue,
    (o.subtotal_amount - o.discount_amount - o.platform_fee_amount - o.refunded_amount) as net
  from billing.orders o
  left join billing.subscriptions sub on sub.id = o.subscription_id
  where ${scope} and ${paid} and o.created_at >= ${q.boundStart} and o.created_at <= ${q.boundEnd}
),
periods as (
  select b as t, count(*) as orders, sum(revenue) as revenue, sum(net) as net,
    count(*) filter (where subscription_id is null) as one_time,
    coalesce(sum(revenue) filter (where subscription_id is null), 0) as one_time_revenue,
    coalesce(sum(net) filter (where subscription_id is null), 0) as one_time_net,
    coalesce(sum(revenue) filter (where subscription_id is not null and sb = b), 0) as new_revenue,
    coalesce(sum(net) filter (where subscription_id is not null and sb = b), 0) as new_net,
    count(*) filter (where subscription_id is not null and sb <> b) as renewed,
    coalesce(sum(revenue) filter (where subscription_id is not null and sb <> b), 0) as renewed_revenue,
    coalesce(sum(net) filter (where subscription_id is not null and sb <> b), 0) as renewed_net
  from paid group by b
)`;
  return ordersAnswerSql(q, periods, baseline, true);
}

/** The orders' metrics the rollup answers: all but the split by the subscription's start (docs/metrics.md#rollups). */
export const ORDERS_ROLLUP_METRICS = [
  'orders',
  'revenue',
  'net_revenue',
  'cumulative_revenue',
  'net_cumulative_revenue',
  'average_order_value',
  'net_average_order_value',
  'one_time_products',
  'one_time_products_revenue',
  'one_time_products_net_revenue',
];

/**
 * The same periods from `billing.metric_rollup_orders` (paid orders per organization, UTC hour, product, currency
 * and whether of a subscription), for a request the rollup can answer exactly (metric-rollups.ts): each hour
 * falls in one period, the earlier total is the sum of the hours before the range.
 */
export function ordersFromRollupSql(q: MetricSql): string {
  const scope = q.scope({ organization: 'r.organization_id', product: 'r.product_id' });
  const baseline = `select coalesce(sum(r.revenue), 0) as revenue, coalesce(sum(r.net_revenue), 0) as net
  from billing.metric_rollup_orders r where ${scope} and r.hour < ${q.boundStart}`;
  const periods = `periods as (
  select ${q.bucket('r.hour')} as t, sum(r.orders) as orders, sum(r.revenue) as revenue, sum(r.net_revenue) as net,
    coalesce(sum(r.orders) filter (where r.one_time), 0) as one_time,
    coalesce(sum(r.revenue) filter (where r.one_time), 0) as one_time_revenue,
    coalesce(sum(r.net_revenue) filter (where r.one_time), 0) as one_time_net
  from billing.metric_rollup_orders r
  where ${scope} and r.hour >= ${q.boundStart} and r.hour <= ${q.boundEnd}
  group by 1
)`;
  return ordersAnswerSql(q, periods, baseline, false);
}

/** One row per period from `periods` (and `baseline`, the total before the range, when a cumulative is asked). */
function ordersAnswerSql(q: MetricSql, periods: string, baseline: string, bySubscriptionStart: boolean): string {
  const cumulative = q.asks('cumulative_revenue', 'net_cumulative_revenue');
  const cumulativeColumns = `
  bl.revenue + coalesce(sum(p.revenue) over w, 0) as cumulative_revenue,
  bl.net + coalesce(sum(p.net) over w, 0) as net_cumulative_revenue,`;
  const splitColumns = `,
  coalesce(p.new_revenue, 0) as new_subscriptions_revenue,
  coalesce(p.new_net, 0) as new_subscriptions_net_revenue,
  coalesce(p.renewed, 0) as renewed_subscriptions,
  coalesce(p.renewed_revenue, 0) as renewed_subscriptions_revenue,
  coalesce(p.renewed_net, 0) as renewed_subscriptions_net_revenue`;
  return `with ${q.seriesCte()},
${periods}${cumulative ? `,\nbaseline as (\n  ${baseline}\n)` : ''}
select ${q.periodColumns('s.t')},
  coalesce(p.orders, 0) as orders,
  coalesce(p.revenue, 0) as revenue,
  coalesce(p.net, 0) as net_revenue,${cumulative ? cumulativeColumns : ''}
  case when coalesce(p.orders, 0) > 0 then ceil(p.revenue::numeric / p.orders) else 0 end as average_order_value,
  case when coalesce(p.orders, 0) > 0 then ceil(p.net::numeric / p.orders) else 0 end as net_average_order_value,
  coalesce(p.one_time, 0) as one_time_products,
  coalesce(p.one_time_revenue, 0) as one_time_products_revenue,
  coalesce(p.one_time_net, 0) as one_time_products_net_revenue${bySubscriptionStart ? splitColumns : ''}
from series s
left join periods p on p.t = s.t${cumulative ? '\ncross join baseline bl\nwindow w as (order by s.t)' : ''}
order by s.t`;
}
