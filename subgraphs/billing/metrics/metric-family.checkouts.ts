import type { MetricSql } from './metric-sql.js';

/**
 * Checkouts per period (docs/metrics.md#checkouts): checkouts created in it and succeeded_checkouts, those of them
 * that succeeded. Polar counts a checkout from when its page was first opened; this service does not record that,
 * so a checkout counts from its creation (Polar's own rule for checkouts before it recorded openings). A product
 * filter matches any product a checkout offers.
 */
export function checkoutsFamilySql(q: MetricSql): string {
  const scope = q.scope({
    organization: 'c.organization_id',
    product: { anyOf: 'c.product_ids', billingType: 'c.product_id' },
    customer: 'c.customer_id',
  });
  return `with ${q.seriesCte()},
created as (
  select ${q.bucket('c.created_at')} as t, count(*) as n, count(*) filter (where c.status = 'succeeded') as succeeded
  from billing.checkouts c
  where ${scope} and c.created_at >= ${q.boundStart} and c.created_at <= ${q.boundEnd}
  group by 1
)
select ${q.periodColumns('s.t')}, coalesce(c.n, 0) as checkouts, coalesce(c.succeeded, 0) as succeeded_checkouts
from series s left join created c on c.t = s.t
order by s.t`;
}
