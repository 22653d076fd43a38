import {
  answeredMetrics,
  isPolarMetricSlug,
  METRIC_CATALOGUE,
  metricDefinition,
  requiredMetrics,
  UNAVAILABLE_METRICS,
} from '../metric.catalogue.js';
import { deriveMetrics, metricTotal } from '../metric-periods.js';

const def = (slug: string) => metricDefinition(slug)!;

describe('the catalogue', () => {
  it('has every Polar slug once, computed or listed as unavailable', () => {
    const slugs = [...METRIC_CATALOGUE.map(m => m.slug), ...UNAVAILABLE_METRICS];
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs).toHaveLength(55);
    expect(isPolarMetricSlug('costs')).toBe(true);
    expect(isPolarMetricSlug('mrr')).toBe(false);
  });

  it('answers what was asked, in catalogue order, and computes what those need', () => {
    expect(answeredMetrics(['ltv', 'costs', 'revenue']).map(m => m.slug)).toEqual(['revenue', 'ltv']);
    expect(requiredMetrics(answeredMetrics(['ltv'])).map(m => m.slug)).toEqual([
      'average_revenue_per_user',
      'churn_rate',
      'ltv',
    ]);
    expect(requiredMetrics(answeredMetrics(['average_order_value'])).map(m => m.slug)).toEqual([
      'orders',
      'revenue',
      'average_order_value',
    ]);
    expect(answeredMetrics(null)).toHaveLength(METRIC_CATALOGUE.length);
  });
});

describe('derived metrics of a period', () => {
  const all = METRIC_CATALOGUE;

  it('ARR is 12 × MRR; conversion and seat rates are ratios, 0 over nothing', () => {
    const v = deriveMetrics(
      {
        monthly_recurring_revenue: 1250,
        committed_monthly_recurring_revenue: 1000,
        checkouts: 4,
        succeeded_checkouts: 3,
        seats_total: 0,
        seats_claimed: 0,
        seat_customers: 0,
      },
      all,
    );
    expect(v).toMatchObject({
      annual_recurring_revenue: 15000,
      committed_annual_recurring_revenue: 12000,
      checkouts_conversion: 0.75,
      seat_utilization_rate: 0,
      average_seats_per_customer: 0,
    });
  });

  it('LTV is ARPU over the churn rate, truncated, 0 without churn', () => {
    expect(deriveMetrics({ average_revenue_per_user: 1000, churn_rate: 0.3 }, all).ltv).toBe(3333);
    expect(deriveMetrics({ average_revenue_per_user: 1000, churn_rate: 0 }, all).ltv).toBe(0);
  });
});

describe('totals', () => {
  const periods = [
    { revenue: 100, orders: 1, active_subscriptions: 3, checkouts: 2, succeeded_checkouts: 1 },
    { revenue: 300, orders: 2, active_subscriptions: 5, checkouts: 0, succeeded_checkouts: 0 },
  ];

  it('sums flows, takes the last period of stocks, divides sums for averages and rates', () => {
    expect(metricTotal(def('revenue'), periods)).toBe(400);
    expect(metricTotal(def('active_subscriptions'), periods)).toBe(5);
    expect(metricTotal(def('average_order_value'), periods)).toBeCloseTo(133.333, 3);
    expect(metricTotal(def('checkouts_conversion'), periods)).toBe(0.5);
    expect(metricTotal(def('average_order_value'), [])).toBe(0);
    expect(metricTotal(def('active_subscriptions'), [])).toBe(0);
  });
});
