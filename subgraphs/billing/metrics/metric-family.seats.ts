import type { MetricSql } from './metric-sql.js';

/**
 * Seats per period (docs/metrics.md#seats), Polar's definitions on period starts `t`: a seat counts from the period
 * it was created in until the one it was revoked in (seats_total), as claimed from the period of its claim
 * (seats_claimed) and as pending before (seats_pending); seat_customers are the distinct billing customers of
 * those seats; new_seat_customers, billing customers whose first seat was created in the period; and
 * churned_seat_customers, billing customers all of whose seats are revoked, the last in the period.
 */
export function seatsFamilySql(q: MetricSql): string {
  const scope = q.scope({
    organization: 'cs.organization_id',
    product: 'coalesce(ss.product_id, so.product_id)',
    customer: 'cs.billing_customer_id',
  });
  return `with ${q.seriesCte()},
seats as (
  select cs.billing_customer_id as customer, cs.created_at, cs.revoked_at,
    ${q.bucket('cs.created_at')} as cb, ${q.bucket('cs.revoked_at')} as rb, ${q.bucket('cs.claimed_at')} as clb
  from billing.customer_seats cs
  left join billing.subscriptions ss on ss.id = cs.subscription_id
  left join billing.orders so on so.id = cs.order_id
  where ${scope}
),
firsts as (select customer, min(cb) as first from seats group by customer),
live as (
  select s.t, seats.customer, seats.cb, seats.clb, f.first
  from series s
  join seats on seats.cb <= s.t and (seats.rb is null or seats.rb > s.t)
    and seats.created_at <= ${q.boundEnd} and (seats.revoked_at is null or seats.revoked_at >= ${q.boundStart})
  join firsts f on f.customer = seats.customer
),
per_period as (
  select t, count(*) as total, count(*) filter (where clb <= t) as claimed,
    count(*) filter (where clb is null or clb > t) as pending, count(distinct customer) as customers,
    count(distinct customer) filter (where cb = t and first = t) as new_customers
  from live group by t
),
churned as (
  select t, count(*) as n from (
    select max(rb) as t from seats group by customer having count(*) = count(revoked_at)
  ) gone group by t
)
select ${q.periodColumns('s.t')},
  coalesce(p.total, 0) as seats_total, coalesce(p.claimed, 0) as seats_claimed,
  coalesce(p.pending, 0) as seats_pending, coalesce(p.customers, 0) as seat_customers,
  coalesce(p.new_customers, 0) as new_seat_customers, coalesce(c.n, 0) as churned_seat_customers
from series s
left join per_period p on p.t = s.t
left join churned c on c.t = s.t
order by s.t`;
}
