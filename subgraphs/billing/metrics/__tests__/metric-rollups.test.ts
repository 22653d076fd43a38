import pg from 'pg';
import { seedMetrics } from '../../../../bench/seed-metrics.js';
import { createMigratedTestDatabase } from '../../../../test/support/database.js';
import { metricDefinition } from '../metric.catalogue.js';
import { metricTotal, type PeriodValues } from '../metric-periods.js';
import { MetricRollups, ROLLUP_METRICS, rollupAnswers } from '../metric-rollups.js';
import type { MetricFilters } from '../metric-sql.js';
import { type MetricInterval, metricWindow } from '../metric-window.js';
import { type ComputedFamily, familyStatement, type MetricSource } from '../metrics.queries.js';

/**
 * The rollups (docs/metrics.md#rollups) against the raw statements, on PostgreSQL: an organization seeded as the
 * bench seeds one (a year of subscriptions, some yearly, with trials, a discount and cancellations; paid and
 * partially refunded orders; checkouts), then changed the ways the service changes it — refunds, plan changes
 * (amount, product and interval), trials moved, a discount's rate changed, orders in a second currency, a
 * checkout deleted — each through the rows, so through the triggers. For each window (every interval; UTC, a
 * whole-hour zone with summer time and a :30 zone), each family the rollup answers gives the same periods and
 * totals either way where the rule allows it, and where the rule refuses it the two differ or cannot be told
 * apart by the rollups: the fallback is needed there.
 */

const FAMILIES = ['orders', 'checkouts', 'subscriptions', 'subscription-events'] as const;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
/** The last day of the month `monthsAgo` months before this one. */
const monthEnd = (monthsAgo: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo + 1, 0)).toISOString().slice(0, 10);
};

let db: { url: string; drop: () => Promise<void> };
let client: pg.Client;
let organizationId: string;
let rollups: MetricRollups;

async function rows(
  family: ComputedFamily,
  source: MetricSource,
  window: ReturnType<typeof metricWindow>,
  filters: MetricFilters,
) {
  const { text, values } = familyStatement(family, window, filters, ROLLUP_METRICS[family], source);
  const result = await client.query(text, values);
  // The metrics the rollup holds, with the period: the raw orders statement has the split by start beside them.
  const kept = new Set(['period', ...ROLLUP_METRICS[family]]);
  return result.rows.map(row =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([k]) => kept.has(k))
        .map(([k, v]) => [k, k === 'period' ? v : Number(v)]),
    ),
  );
}

/** The family's periods and its metrics' totals, from its rows or its rollup. */
async function answer(
  family: ComputedFamily,
  source: MetricSource,
  window: ReturnType<typeof metricWindow>,
  filters: MetricFilters = { organizationIds: [organizationId] },
) {
  const periods = await rows(family, source, window, filters);
  const totals = Object.fromEntries(
    [...ROLLUP_METRICS[family]].map(slug => [slug, metricTotal(metricDefinition(slug)!, periods as PeriodValues[])]),
  );
  return { periods, totals };
}

beforeAll(async () => {
  db = await createMigratedTestDatabase('metric_rollups');
  organizationId = crypto.randomUUID();
  await seedMetrics({ databaseUrl: db.url, organizationId, orders: 6000, subscriptions: 1500, checkouts: 800 });
  client = new pg.Client(db.url);
  await client.connect();
  const org = [organizationId];
  // Refunds, full and partial, of recent orders.
  await client.query(
    `update billing.orders set status = 'refunded', refunded_amount = subtotal_amount - discount_amount
     where organization_id = $1 and status = 'paid' and created_at > now() - interval '20 days' and random() < 0.2`,
    org,
  );
  // Plan changes: a new amount, a yearly interval and (for some) a new product, as the plan-change write does.
  await client.query(
    `update billing.subscriptions set amount = amount * 3, recurring_interval = 'year',
       product_id = case when random() < 0.5 then product_id else (
         select id from billing.products where organization_id = $1 and recurring_interval is null limit 1) end
     where organization_id = $1 and ended_at is null and random() < 0.08`,
    org,
  );
  // Trials that end later, and cancellations at the period's end with a reason.
  await client.query(
    `update billing.subscriptions set trial_start = started_at, trial_end = started_at + interval '40 days'
     where organization_id = $1 and random() < 0.05`,
    org,
  );
  await client.query(
    `update billing.subscriptions set ends_at = now() + interval '9 days', canceled_at = now() - interval '3 hours',
       customer_cancellation_reason = 'too_complex'
     where organization_id = $1 and ended_at is null and random() < 0.05`,
    org,
  );
  // The discount's rate changes: its subscriptions' MRR with it; a fixed discount in euros on dollar plans.
  await client.query(`update billing.discounts set basis_points = 2500 where organization_id = $1`, org);
  await client.query(
    `insert into billing.discounts (id, organization_id, name, type, amount, currency, duration, product_ids, metadata, created_at)
     values (gen_random_uuid(), $1, 'Euros off', 'fixed', 300, 'eur', 'forever', '{}', '{}', now())`,
    org,
  );
  await client.query(
    `update billing.subscriptions set discount_id = (
       select id from billing.discounts where organization_id = $1 and name = 'Euros off')
     where organization_id = $1 and discount_id is null and random() < 0.05`,
    org,
  );
  // Orders in a second currency, one checkout deleted, some expired ones succeeded after all.
  await client.query(
    `insert into billing.orders (id, organization_id, customer_id, product_id, product_price_id, subscription_id, status,
       billing_reason, currency, subtotal_amount, discount_amount, tax_amount, refunded_amount, created_at)
     select gen_random_uuid(), organization_id, customer_id, product_id, product_price_id, null, 'paid', 'purchase',
       'eur', 1234, 0, 0, 0, created_at + interval '17 minutes'
     from billing.orders where organization_id = $1 and subscription_id is null and random() < 0.05`,
    org,
  );
  await client.query(
    `delete from billing.checkouts where id = (select id from billing.checkouts where organization_id = $1 limit 1)`,
    org,
  );
  await client.query(
    `update billing.checkouts set status = 'succeeded' where organization_id = $1 and status = 'expired' and random() < 0.3`,
    org,
  );
  rollups = new MetricRollups(async (sql, params) => (await client.query(sql, [...params])).rows, db.url);
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

const WINDOWS: [start: string, end: string, interval: MetricInterval, timezone: string][] = [
  [day(29), day(0), 'day', 'UTC'],
  [day(365), day(0), 'day', 'Europe/Berlin'],
  [day(6), day(0), 'hour', 'Europe/Berlin'],
  [day(120), day(7 + ((new Date().getUTCDay() + 7) % 7)), 'week', 'Europe/Berlin'],
  [day(400), monthEnd(1), 'month', 'Europe/Berlin'],
  [day(800), monthEnd(new Date().getUTCMonth() + 1), 'year', 'UTC'],
  [day(200), day(40), 'month', 'UTC'],
  [day(29), day(0), 'day', 'Asia/Kolkata'],
  [day(3), day(0), 'hour', 'Asia/Kolkata'],
];

describe('metric rollups', () => {
  it('answer every period and total as the raw statements where the rule reads them, and differ where it does not', async () => {
    const served: string[] = [];
    const refused: string[] = [];
    for (const [start, end, interval, timezone] of WINDOWS) {
      const window = metricWindow(start, end, interval, timezone);
      const usable = await rollups.usable(window, { organizationIds: [organizationId] });
      for (const family of FAMILIES) {
        const label = `${family} ${interval} ${timezone} ${start}..${end}`;
        const [raw, rollup] = [await answer(family, 'raw', window), await answer(family, 'rollup', window)];
        if (usable && rollupAnswers(family, ROLLUP_METRICS[family], window)) {
          expect({ label, ...rollup }).toEqual({ label, ...raw });
          served.push(label);
        } else refused.push(`${label}${JSON.stringify(rollup) === JSON.stringify(raw) ? ' (same here)' : ''}`);
      }
    }
    // Served: every family in UTC and Berlin; the subscriptions' by month only when the end closes a month.
    expect(served).toHaveLength(7 * 4 - 1);
    // Refused: every family in the :30 zone, whose days cut UTC hours (the orders by day differ there), and the
    // subscriptions by month ending mid-month.
    expect(refused.filter(label => label.includes('Asia/Kolkata'))).toHaveLength(8);
    expect(refused).toContainEqual(expect.stringMatching(/^orders day Asia\/Kolkata [^(]*$/));
    expect(refused.filter(label => !label.includes('Asia/Kolkata'))).toEqual([
      expect.stringMatching(/^subscriptions month UTC /),
    ]);
  });

  it('are not read for a customer filter, a metric they do not hold, or an organization awaiting its backfill', async () => {
    const window = metricWindow(day(29), day(0), 'day', 'UTC');
    expect(
      await rollups.usable(window, { organizationIds: [organizationId], customerIds: [crypto.randomUUID()] }),
    ).toBe(false);
    for (const slug of ['average_revenue_per_user', 'churn_rate', 'new_subscriptions_revenue', 'renewed_subscriptions'])
      expect(rollupAnswers(metricDefinition(slug)!.family as ComputedFamily, new Set([slug]), window)).toBe(false);
    expect(rollupAnswers('seats', new Set(['seats_total']), window)).toBe(false);
    expect(rollupAnswers('orders', undefined, window)).toBe(false);

    // Another organization's rows from before the rollups: listed, not ready, so not read until backfilled.
    const waiting = crypto.randomUUID();
    await seedMetrics({ databaseUrl: db.url, organizationId: waiting, orders: 500, subscriptions: 100, checkouts: 50 });
    for (const table of ['orders', 'subscriptions', 'checkouts'])
      await client.query(`delete from billing.metric_rollup_${table} where organization_id = $1`, [waiting]);
    await client.query('update billing.metric_rollup_state set ready = false where organization_id = $1', [waiting]);
    const fresh = new MetricRollups(
      async (sql, params) => (await client.query(sql, [...params])).rows,
      `${db.url}?fresh`,
    );
    expect(await fresh.usable(window, { organizationIds: [waiting] })).toBe(false);
    expect(await fresh.usable(window, { organizationIds: [organizationId] })).toBe(true);
    const filters = { organizationIds: [waiting] };
    expect((await answer('orders', 'rollup', window, filters)).totals.orders).toBe(0);

    const backfilled = await client.query('select billing.metric_rollup_backfill($1) as done', [waiting]);
    expect(backfilled.rows[0].done).toBe(true);
    expect(await fresh.usable(window, filters)).toBe(true);
    for (const family of FAMILIES)
      expect(await answer(family, 'rollup', window, filters)).toEqual(await answer(family, 'raw', window, filters));
    const again = await client.query('select billing.metric_rollup_backfill($1) as done', [waiting]);
    expect(again.rows[0].done).toBe(false);
  });
});
