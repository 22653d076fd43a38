import type { MetricDefinition } from './metric.catalogue.js';

/** One period's values, by slug (the families' SQL columns, then the derived metrics). */
export type PeriodValues = Record<string, number>;

const ratio = (numerator: number, denominator: number): number => (denominator > 0 ? numerator / denominator : 0);

/**
 * Derived metrics of one period, from the period's other values (Polar's post-computed metrics). LTV is ARPU over
 * the churn rate, truncated to whole minor units and never negative; Polar subtracts a cost per user, which is 0
 * here (no cost events: docs/metrics.md#absent).
 */
const DERIVED: Readonly<Record<string, (v: PeriodValues) => number>> = {
  annual_recurring_revenue: v => (v.monthly_recurring_revenue ?? 0) * 12,
  committed_annual_recurring_revenue: v => (v.committed_monthly_recurring_revenue ?? 0) * 12,
  checkouts_conversion: v => ratio(v.succeeded_checkouts ?? 0, v.checkouts ?? 0),
  ltv: v => {
    const churn = v.churn_rate ?? 0;
    return churn === 0 ? 0 : Math.max(0, Math.trunc((v.average_revenue_per_user ?? 0) / churn));
  },
  average_seats_per_customer: v => ratio(v.seats_total ?? 0, v.seat_customers ?? 0),
  seat_utilization_rate: v => ratio(v.seats_claimed ?? 0, v.seats_total ?? 0),
};

/** Adds the derived metrics among `metrics` to the period (its SQL values are already there). */
export function deriveMetrics(values: PeriodValues, metrics: readonly MetricDefinition[]): PeriodValues {
  for (const m of metrics) {
    const derive = DERIVED[m.slug];
    if (m.family === 'derived' && derive) values[m.slug] = derive(values);
  }
  return values;
}

/** The whole range's value of a metric (Polar's `get_cumulative`): a sum, the last period's, or a ratio of sums. */
export function metricTotal(metric: MetricDefinition, periods: readonly PeriodValues[]): number {
  const sum = (slug: string) => periods.reduce((acc, p) => acc + (p[slug] ?? 0), 0);
  if (metric.total === 'sum') return sum(metric.slug);
  if (metric.total === 'last') return periods.length ? (periods[periods.length - 1][metric.slug] ?? 0) : 0;
  const [numerator, denominator] = metric.total.ratio;
  return ratio(sum(numerator), sum(denominator));
}
