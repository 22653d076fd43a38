/** Polar's MetricType: how a value reads (docs/metrics.md). */
export type MetricType = 'scalar' | 'currency' | 'currency_sub_cent' | 'percentage';

/**
 * Where a metric's numbers come from: one SQL module per family (docs/metrics.md#families), or `derived`,
 * computed from other metrics of the same period after the SQL ran.
 */
export type MetricFamily = 'subscriptions' | 'subscription-events' | 'orders' | 'checkouts' | 'seats' | 'derived';

/**
 * How the whole range's total is made from the periods (Polar's `get_cumulative`): `sum` adds them, `last` takes
 * the last period's value, `ratio` divides the sums of two other metrics.
 */
export type MetricTotal = 'sum' | 'last' | { ratio: [numerator: string, denominator: string] };

export interface MetricDefinition {
  slug: string;
  displayName: string;
  type: MetricType;
  family: MetricFamily;
  total: MetricTotal;
  /** Slugs a derived metric (or a ratio total) is computed from. */
  dependencies?: readonly string[];
}

const metric = (
  slug: string,
  displayName: string,
  type: MetricType,
  family: MetricFamily,
  total: MetricTotal,
  dependencies?: readonly string[],
): MetricDefinition => ({ slug, displayName, type, family, total, ...(dependencies ? { dependencies } : {}) });

const REASONS: readonly [string, string][] = [
  ['customer_service', 'Customer Service'],
  ['low_quality', 'Low Quality'],
  ['missing_features', 'Missing Features'],
  ['switched_service', 'Switched Service'],
  ['too_complex', 'Too Complex'],
  ['too_expensive', 'Too Expensive'],
  ['unused', 'Unused'],
  ['other', 'Other'],
];

/**
 * Every metric slug Polar defines, in Polar's order (the order of the `metrics` map and of the CSV's columns):
 * the ones this service computes, each with its family, and the ones it cannot (`UNAVAILABLE_METRICS`), which a
 * request may name but which are absent from every answer.
 */
export const METRIC_CATALOGUE: readonly MetricDefinition[] = [
  metric('active_subscriptions', 'Active Subscriptions', 'scalar', 'subscriptions', 'last'),
  metric('committed_subscriptions', 'Committed Subscriptions', 'scalar', 'subscriptions', 'last'),
  metric('monthly_recurring_revenue', 'Monthly Recurring Revenue', 'currency', 'subscriptions', 'last'),
  metric('trial_monthly_recurring_revenue', 'Trialing MRR Including Cancelations', 'currency', 'subscriptions', 'last'),
  metric(
    'committed_monthly_recurring_revenue',
    'Committed Monthly Recurring Revenue',
    'currency',
    'subscriptions',
    'last',
  ),
  metric(
    'trial_committed_monthly_recurring_revenue',
    'Trialing Monthly Recurring Revenue',
    'currency',
    'subscriptions',
    'last',
  ),
  metric('average_revenue_per_user', 'Average Revenue Per User', 'currency', 'subscriptions', 'last'),
  metric('checkouts', 'Checkouts', 'scalar', 'checkouts', 'sum'),
  metric('succeeded_checkouts', 'Succeeded Checkouts', 'scalar', 'checkouts', 'sum'),
  metric('churned_subscriptions', 'Churned Subscriptions', 'scalar', 'subscription-events', 'sum'),
  metric('churn_rate', 'Churn Rate', 'percentage', 'subscription-events', 'last'),
  metric('seats_total', 'Seat Count', 'scalar', 'seats', 'last'),
  metric('seats_claimed', 'Claimed Seats', 'scalar', 'seats', 'last'),
  metric('seats_pending', 'Pending Seats', 'scalar', 'seats', 'last'),
  metric('seat_customers', 'Active Customers', 'scalar', 'seats', 'last'),
  metric('new_seat_customers', 'New Customers', 'scalar', 'seats', 'sum'),
  metric('churned_seat_customers', 'Churned Customers', 'scalar', 'seats', 'sum'),
  metric('orders', 'Orders', 'scalar', 'orders', 'sum'),
  metric('revenue', 'Revenue', 'currency', 'orders', 'sum'),
  metric('net_revenue', 'Net Revenue', 'currency', 'orders', 'sum'),
  metric('cumulative_revenue', 'Cumulative Revenue', 'currency', 'orders', 'last'),
  metric('net_cumulative_revenue', 'Net Cumulative Revenue', 'currency', 'orders', 'last'),
  metric('average_order_value', 'Average Order Value', 'currency', 'orders', { ratio: ['revenue', 'orders'] }),
  metric('net_average_order_value', 'Net Average Order Value', 'currency', 'orders', {
    ratio: ['net_revenue', 'orders'],
  }),
  metric('one_time_products', 'One-Time Products', 'scalar', 'orders', 'sum'),
  metric('one_time_products_revenue', 'One-Time Products Revenue', 'currency', 'orders', 'sum'),
  metric('one_time_products_net_revenue', 'One-Time Products Net Revenue', 'currency', 'orders', 'sum'),
  metric('new_subscriptions', 'New Subscriptions', 'scalar', 'subscription-events', 'sum'),
  metric('new_subscriptions_revenue', 'New Subscriptions Revenue', 'currency', 'orders', 'sum'),
  metric('new_subscriptions_net_revenue', 'New Subscriptions Net Revenue', 'currency', 'orders', 'sum'),
  metric('renewed_subscriptions', 'Renewed Subscriptions', 'scalar', 'orders', 'sum'),
  metric('renewed_subscriptions_revenue', 'Renewed Subscriptions Revenue', 'currency', 'orders', 'sum'),
  metric('renewed_subscriptions_net_revenue', 'Renewed Subscriptions Net Revenue', 'currency', 'orders', 'sum'),
  metric('canceled_subscriptions', 'Canceled Subscriptions', 'scalar', 'subscription-events', 'sum'),
  ...REASONS.map(([reason, label]) =>
    metric(
      `canceled_subscriptions_${reason}`,
      `Canceled Subscriptions - ${label}`,
      'scalar',
      'subscription-events',
      'sum',
    ),
  ),
  metric('annual_recurring_revenue', 'Annual Recurring Revenue', 'currency', 'derived', 'last', [
    'monthly_recurring_revenue',
  ]),
  metric('committed_annual_recurring_revenue', 'Committed Annual Recurring Revenue', 'currency', 'derived', 'last', [
    'committed_monthly_recurring_revenue',
  ]),
  metric(
    'checkouts_conversion',
    'Checkouts Conversion Rate',
    'percentage',
    'derived',
    { ratio: ['succeeded_checkouts', 'checkouts'] },
    ['checkouts', 'succeeded_checkouts'],
  ),
  metric('ltv', 'Lifetime Value', 'currency', 'derived', 'last', ['average_revenue_per_user', 'churn_rate']),
  metric('average_seats_per_customer', 'Average Seats per Customer', 'scalar', 'derived', 'last', [
    'seats_total',
    'seat_customers',
  ]),
  metric('seat_utilization_rate', 'Seat Utilization Rate', 'percentage', 'derived', 'last', [
    'seats_claimed',
    'seats_total',
  ]),
];

/**
 * Polar's slugs this service cannot compute: they need cost events (`_cost` on ingested events), which it does not
 * ingest. A request may name them (they are Polar's, so not a 422); they are absent from the answer, never 0.
 */
export const UNAVAILABLE_METRICS: readonly string[] = [
  'costs',
  'cumulative_costs',
  'cost_per_user',
  'active_user_by_event',
  'gross_margin',
  'gross_margin_percentage',
  'cashflow',
];

const BY_SLUG = new Map(METRIC_CATALOGUE.map(m => [m.slug, m]));

export function metricDefinition(slug: string): MetricDefinition | undefined {
  return BY_SLUG.get(slug);
}

/** Whether Polar knows the slug (computed here or not). */
export function isPolarMetricSlug(slug: string): boolean {
  return BY_SLUG.has(slug) || UNAVAILABLE_METRICS.includes(slug);
}

/**
 * The metrics an answer carries, in catalogue order: the requested ones this service computes (all of them when
 * none is named).
 */
export function answeredMetrics(requested: readonly string[] | null | undefined): MetricDefinition[] {
  if (!requested) return [...METRIC_CATALOGUE];
  const wanted = new Set(requested);
  return METRIC_CATALOGUE.filter(m => wanted.has(m.slug));
}

/** The answered metrics and everything they are computed from (derived metrics' and ratio totals' inputs). */
export function requiredMetrics(answered: readonly MetricDefinition[]): MetricDefinition[] {
  const needed = new Set<string>();
  const visit = (slug: string) => {
    if (needed.has(slug)) return;
    needed.add(slug);
    const definition = BY_SLUG.get(slug);
    for (const dependency of definition?.dependencies ?? []) visit(dependency);
    if (definition && typeof definition.total === 'object') for (const input of definition.total.ratio) visit(input);
  };
  for (const m of answered) visit(m.slug);
  return METRIC_CATALOGUE.filter(m => needed.has(m.slug));
}
