import type { Read } from '../../../kit/database/read/execute.js';
import { CHECKOUTS_ROLLUP_METRICS } from './metric-family.checkouts.js';
import { ORDERS_ROLLUP_METRICS } from './metric-family.orders.js';
import { SUBSCRIPTION_EVENTS_ROLLUP_METRICS } from './metric-family.subscription-events.js';
import { SUBSCRIPTIONS_ROLLUP_METRICS } from './metric-family.subscriptions.js';
import type { MetricFamily } from './metric.catalogue.js';
import type { MetricFilters } from './metric-sql.js';
import type { MetricWindow } from './metric-window.js';

type Family = Exclude<MetricFamily, 'derived'>;

/** The metrics each family's rollup answers; a family's request with any other metric reads the raw rows. */
export const ROLLUP_METRICS: Readonly<Record<Family, ReadonlySet<string>>> = {
  orders: new Set(ORDERS_ROLLUP_METRICS),
  checkouts: new Set(CHECKOUTS_ROLLUP_METRICS),
  subscriptions: new Set(SUBSCRIPTIONS_ROLLUP_METRICS),
  'subscription-events': new Set(SUBSCRIPTION_EVENTS_ROLLUP_METRICS),
  seats: new Set(),
};

/**
 * THE RULE (docs/metrics.md#rollups): a family's numbers come from its rollup (rows per organization, UTC hour
 * and product) when the rollup gives exactly what the raw statement gives, else from the raw statement:
 *
 * - every metric asked of the family is one its rollup holds (`ROLLUP_METRICS`), and none of its metrics is
 *   asked without a list (a request for all of them);
 * - no `customer_id` filter (the rollups have no customers);
 * - each UTC hour of the range falls in one period, and the range starts and ends on UTC hours: true in UTC and
 *   in any zone whose offset is a whole number of hours over the range (`Europe/Paris`, `Pacific/Auckland`),
 *   false in `Asia/Kolkata` (+05:30) or `Asia/Kathmandu` (+05:45), checked by PostgreSQL itself (`aligned`);
 * - for the subscriptions' running sums, the end date closes its period (always by hour and day; a Sunday by
 *   week, a month's last day, 31 December): a subscription started after the end date but within its period is
 *   not counted, and the hours cannot tell its end from its start;
 * - every organization asked is ready: none waits for the backfill of its earlier rows (`ready`).
 *
 * The first and the fourth are `rollupAnswers` (per family, pure); the second, the third and the last
 * `MetricRollups.usable` (per request).
 */
export function rollupAnswers(family: Family, slugs: ReadonlySet<string> | undefined, window: MetricWindow): boolean {
  const held = ROLLUP_METRICS[family];
  if (!slugs || !held.size || ![...slugs].every(slug => held.has(slug))) return false;
  return family !== 'subscriptions' || closesPeriod(window);
}

/** Whether the window's end date is the last day of its period (day and hour: always). */
export function closesPeriod(window: Pick<MetricWindow, 'interval' | 'boundEnd'>): boolean {
  const end = new Date(`${window.boundEnd.slice(0, 10)}T00:00:00Z`);
  const next = new Date(end.getTime() + 86_400_000);
  if (window.interval === 'week') return end.getUTCDay() === 0;
  if (window.interval === 'month') return next.getUTCDate() === 1;
  if (window.interval === 'year') return next.getUTCMonth() === 0 && next.getUTCDate() === 1;
  return true;
}

/**
 * Each UTC hour of the range in one period (the period of its first and of its last microsecond agree) and the
 * range's first and last instants on UTC hours, by PostgreSQL's own time zone data.
 */
const ALIGNED_SQL = `select coalesce(bool_and(
    date_trunc($3, h at time zone $1) = date_trunc($3, (h + interval '1 hour' - interval '1 microsecond') at time zone $1)
  ), true) and bool_and(date_trunc('hour', b.lo, 'UTC') = b.lo and date_trunc('hour', b.hi, 'UTC') = b.hi) as aligned
from (select ($2::timestamp at time zone $1) as lo, (($4::timestamp + interval '1 microsecond') at time zone $1) as hi) b
left join lateral generate_series(b.lo, b.hi - interval '1 hour', interval '1 hour') h on true`;

/** Whether any organization of the database, or of the request's (`$1`), waits for its backfill. */
const ANY_PENDING_SQL = 'select exists (select 1 from billing.metric_rollup_state where not ready) as pending';
const PENDING_SQL = `select exists (
  select 1 from billing.metric_rollup_state where not ready and organization_id = any($1::uuid[])) as pending`;

/** Per database: the answers that cannot change (a zone's alignment for a range; no organization left to backfill). */
const alignments = new Map<string, boolean>();
const allReady = new Set<string>();

/** The per-request half of the rule, read from the database (and remembered where it cannot change). */
export class MetricRollups {
  /** `read` runs a statement on `database` (its URL, the key of what is remembered). */
  constructor(
    private readonly read: Read,
    private readonly database: string,
  ) {}

  async usable(window: MetricWindow, filters: MetricFilters): Promise<boolean> {
    if (filters.customerIds?.length) return false;
    const [aligned, ready] = await Promise.all([this.aligned(window), this.ready(filters.organizationIds)]);
    return aligned && ready;
  }

  async aligned(window: MetricWindow): Promise<boolean> {
    if (window.timezone === 'UTC') return true;
    const key = `${this.database} ${window.timezone} ${window.interval} ${window.boundStart} ${window.boundEnd}`;
    let known = alignments.get(key);
    if (known === undefined) {
      const [row] = await this.read(ALIGNED_SQL, [
        window.timezone,
        window.boundStart,
        window.interval,
        window.boundEnd,
      ]);
      known = row?.aligned === true;
      if (alignments.size >= 1000) alignments.clear();
      alignments.set(key, known);
    }
    return known;
  }

  /**
   * No organization of the request waits for its backfill. Once none in the whole database does, none ever will
   * (a new organization is ready from its first row), so the answer is remembered per database.
   */
  async ready(organizationIds: string[]): Promise<boolean> {
    if (allReady.has(this.database)) return true;
    const [all] = await this.read(ANY_PENDING_SQL, []);
    if (all?.pending === false) {
      allReady.add(this.database);
      return true;
    }
    const [these] = await this.read(PENDING_SQL, [organizationIds]);
    return these?.pending === false;
  }
}
