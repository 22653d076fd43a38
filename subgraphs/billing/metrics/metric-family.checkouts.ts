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
  return checkoutsAnswerSql(
    q,
    `select ${q.bucket('c.created_at')} as t, count(*) as n, count(*) filter (where c.status = 'succeeded') as succeeded
  from billing.checkouts c
  where ${scope} and c.created_at >= ${q.boundStart} and c.created_at <= ${q.boundEnd}
  group by 1`,
  );
}

/** The checkouts' metrics the rollup answers: both (docs/metrics.md#rollups). */
export const CHECKOUTS_ROLLUP_METRICS = ['checkouts', 'succeeded_checkouts'];

/** The same from `billing.metric_rollup_checkouts` (per organization, UTC hour and products; metric-rollups.ts). */
export function checkoutsFromRollupSql(q: MetricSql): string {
  const scope = q.scope({
    organization: 'r.organization_id',
    product: { anyOf: 'r.product_ids', billingType: 'r.product_id' },
  });
  return checkoutsAnswerSql(
    q,
    `select ${q.bucket('r.hour')} as t, sum(r.checkouts) as n, sum(r.succeeded) as succeeded
  from billing.metric_rollup_checkouts r
  where ${scope} and r.hour >= ${q.boundStart} and r.hour <= ${q.boundEnd}
  group by 1`,
  );
}

function checkoutsAnswerSql(q: MetricSql, created: string): string {
  return `with ${q.seriesCte()},
created as (
  ${created}
)
select ${q.periodColumns('s.t')}, coalesce(c.n, 0) as checkouts, coalesce(c.succeeded, 0) as succeeded_checkouts
from series s left join created c on c.t = s.t
order by s.t`;
}
