// The metrics scenario's independent computation (test/e2e/metrics-scenario.test.ts): Polar's definitions of each
// metric (docs/metrics.md), computed in plain TypeScript from the orders, subscriptions and checkouts the API lists.

export type Row = Record<string, any>;
export type Bucket = (iso: string) => string;

/** The wall-clock day (or month) of an instant in a time zone, as `YYYY-MM-DD` (`YYYY-MM`). */
export function bucketing(timezone: string, width: 'day' | 'month'): Bucket {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return iso => format.format(new Date(iso)).slice(0, width === 'day' ? 10 : 7);
}

/** The independent computation: Polar's definitions (docs/metrics.md) over what the API lists. */
export function expected(
  data: { orders: Row[]; subscriptions: Row[]; checkouts: Row[] },
  keys: string[],
  bucket: Bucket,
) {
  const first = keys[0];
  const last = keys[keys.length - 1];
  const within = (iso: string | null) => iso !== null && bucket(iso) >= first && bucket(iso) <= last;
  const started = new Map(data.subscriptions.map(s => [s.id, s.started_at as string]));
  const paid = data.orders.filter(o => ['paid', 'refunded', 'partially_refunded'].includes(o.status));
  const net = (o: Row) => o.net_amount - o.refunded_amount; // this service takes no platform fee
  const monthly = (s: Row) => {
    const off = s.discount?.type === 'percentage' ? Math.round((s.amount * s.discount.basis_points) / 10000) : 0;
    const amount = s.amount - off;
    return s.recurring_interval === 'year' ? Math.round(amount / 12) : amount;
  };
  const end = (s: Row): string | null => s.ended_at ?? s.ends_at;
  const series: Record<string, number[]> = {};
  const put = (slug: string, value: number) => {
    series[slug] ??= [];
    series[slug].push(value);
  };
  let cumulative = 0;
  let netCumulative = 0;
  for (const t of keys) {
    const orders = paid.filter(o => bucket(o.created_at) === t);
    const sum = (list: Row[], f: (o: Row) => number) => list.reduce((acc, o) => acc + f(o), 0);
    const revenue = sum(orders, o => o.net_amount);
    const netRevenue = sum(orders, net);
    cumulative += revenue;
    netCumulative += netRevenue;
    const oneTime = orders.filter(o => o.subscription_id === null);
    const isNew = (o: Row) => o.subscription_id !== null && bucket(started.get(o.subscription_id)!) === t;
    const renewed = orders.filter(o => o.subscription_id !== null && !isNew(o));
    put('orders', orders.length);
    put('revenue', revenue);
    put('net_revenue', netRevenue);
    put('cumulative_revenue', cumulative);
    put('net_cumulative_revenue', netCumulative);
    put('average_order_value', orders.length ? Math.ceil(revenue / orders.length) : 0);
    put('net_average_order_value', orders.length ? Math.ceil(netRevenue / orders.length) : 0);
    put('one_time_products', oneTime.length);
    put(
      'one_time_products_revenue',
      sum(oneTime, o => o.net_amount),
    );
    put('one_time_products_net_revenue', sum(oneTime, net));
    put(
      'new_subscriptions_revenue',
      sum(orders.filter(isNew), o => o.net_amount),
    );
    put('new_subscriptions_net_revenue', sum(orders.filter(isNew), net));
    put('renewed_subscriptions', renewed.length);
    put(
      'renewed_subscriptions_revenue',
      sum(renewed, o => o.net_amount),
    );
    put('renewed_subscriptions_net_revenue', sum(renewed, net));

    const active = data.subscriptions.filter(
      s =>
        (!s.started_at || bucket(s.started_at) <= t) &&
        (!end(s) || bucket(end(s)!) > t) &&
        (!s.started_at || bucket(s.started_at) <= last) &&
        (!end(s) || bucket(end(s)!) >= first),
    );
    const paying = active.filter(s => !s.trial_end || bucket(s.trial_end) <= t);
    const trialing = active.filter(s => s.trial_end && bucket(s.trial_end) > t);
    const mrr = paying.reduce((acc, s) => acc + monthly(s), 0);
    const customers = new Set(active.map(s => s.customer_id)).size;
    put('active_subscriptions', active.length);
    put('committed_subscriptions', active.filter(s => !end(s)).length);
    put('monthly_recurring_revenue', mrr);
    put(
      'committed_monthly_recurring_revenue',
      paying.filter(s => !end(s)).reduce((acc, s) => acc + monthly(s), 0),
    );
    put(
      'trial_monthly_recurring_revenue',
      trialing.reduce((acc, s) => acc + monthly(s), 0),
    );
    put(
      'trial_committed_monthly_recurring_revenue',
      trialing.filter(s => !end(s)).reduce((acc, s) => acc + monthly(s), 0),
    );
    put('average_revenue_per_user', customers ? Math.round(mrr / customers) : 0);
    put('annual_recurring_revenue', mrr * 12);
    put('new_subscriptions', data.subscriptions.filter(s => within(s.created_at) && bucket(s.created_at) === t).length);
    put('churned_subscriptions', data.subscriptions.filter(s => within(end(s)) && bucket(end(s)!) === t).length);
    const canceledHere = data.subscriptions.filter(s => within(s.canceled_at) && bucket(s.canceled_at) === t);
    put('canceled_subscriptions', canceledHere.length);
    put(
      'canceled_subscriptions_too_expensive',
      canceledHere.filter(s => s.customer_cancellation_reason === 'too_expensive').length,
    );
    put('canceled_subscriptions_other', canceledHere.filter(s => s.customer_cancellation_reason === 'other').length);
    const checkouts = data.checkouts.filter(c => within(c.created_at) && bucket(c.created_at) === t);
    const succeeded = checkouts.filter(c => c.status === 'succeeded').length;
    put('checkouts', checkouts.length);
    put('succeeded_checkouts', succeeded);
    put('checkouts_conversion', checkouts.length ? succeeded / checkouts.length : 0);
  }
  return series;
}

/** Polar's churn rate for a UTC day `t`: canceled in the 30 days before it over active 30 days before it. */
export function churnRate(subscriptions: Row[], day: string): number {
  const windowEnd = Date.parse(`${day}T00:00:00Z`);
  const windowStart = windowEnd - 30 * 86_400_000;
  const at = (iso: string | null) => (iso ? Date.parse(iso) : null);
  const activeAtStart = subscriptions.filter(s => {
    const started = at(s.started_at);
    const ended = at(s.ended_at ?? s.ends_at);
    return (started === null || started <= windowStart) && (ended === null || ended > windowStart);
  }).length;
  const canceled = subscriptions.filter(s => {
    const c = at(s.canceled_at);
    return c !== null && c >= windowStart && c < windowEnd;
  }).length;
  return activeAtStart > 0 ? canceled / activeAtStart : 0;
}
