import type { EntityManager } from '@mikro-orm/postgresql';
import { inReadTransaction, type ReadRow, runRead } from '../../../kit/database/read/execute.js';
import type { MetricFamily } from './metric.catalogue.js';
import { checkoutsFamilySql, checkoutsFromRollupSql } from './metric-family.checkouts.js';
import { ordersFamilySql, ordersFromRollupSql } from './metric-family.orders.js';
import { seatsFamilySql } from './metric-family.seats.js';
import { subscriptionEventsFamilySql, subscriptionEventsFromRollupSql } from './metric-family.subscription-events.js';
import { subscriptionsFamilySql, subscriptionsFromRollupSql } from './metric-family.subscriptions.js';
import { MetricRollups } from './metric-rollups.js';
import { type MetricFilters, MetricSql } from './metric-sql.js';
import type { MetricWindow } from './metric-window.js';

export type ComputedFamily = Exclude<MetricFamily, 'derived'>;

const FAMILY_SQL: Readonly<Record<ComputedFamily, (q: MetricSql) => string>> = {
  subscriptions: subscriptionsFamilySql,
  'subscription-events': subscriptionEventsFamilySql,
  orders: ordersFamilySql,
  checkouts: checkoutsFamilySql,
  seats: seatsFamilySql,
};

/** The families' statements over their rollups (metric-rollups.ts says when one is read). */
const ROLLUP_SQL: Readonly<Record<Exclude<ComputedFamily, 'seats'>, (q: MetricSql) => string>> = {
  subscriptions: subscriptionsFromRollupSql,
  'subscription-events': subscriptionEventsFromRollupSql,
  orders: ordersFromRollupSql,
  checkouts: checkoutsFromRollupSql,
};

/** Where a family's numbers are read from: its raw rows, or its rollup (docs/metrics.md#rollups). */
export type MetricSource = 'raw' | 'rollup';

/** The periods alone, for a request whose metrics no family computes. */
function seriesSql(q: MetricSql): string {
  return `with ${q.seriesCte()} select ${q.periodColumns('t')} from series order by t`;
}

/**
 * The statement of one family for a request's window and filters: its text and its `$n` values. `metrics`, the
 * slugs needed of the family, lets it leave out the parts only other metrics need; absent, it computes them all.
 * `source` 'rollup' reads the family's rollup instead of its rows: only where metric-rollups.ts's rule allows.
 */
export function familyStatement(
  family: ComputedFamily | 'series',
  window: MetricWindow,
  filters: MetricFilters,
  metrics?: ReadonlySet<string>,
  source: MetricSource = 'raw',
): { text: string; values: unknown[] } {
  const q = new MetricSql(window, filters, metrics);
  const text =
    family === 'series'
      ? seriesSql(q)
      : source === 'rollup' && family !== 'seats'
        ? ROLLUP_SQL[family](q)
        : FAMILY_SQL[family](q);
  return { text, values: q.values };
}

/**
 * The metrics' statements (docs/metrics.md): one per family, each one row per period (`period`, `instant`, then
 * the family's metrics by slug), each in a short read transaction of its own (prepared once per shape).
 */
export class MetricsQueries {
  constructor(private readonly em: EntityManager) {}

  /** Whether this request may read the rollups (metric-rollups.ts), on this EntityManager's connection. */
  rollups(): MetricRollups {
    return new MetricRollups((sql, params) => runRead(this.em, sql, params), String(this.em.config.get('clientUrl')));
  }

  family(
    family: ComputedFamily | 'series',
    window: MetricWindow,
    filters: MetricFilters,
    metrics?: ReadonlySet<string>,
    source: MetricSource = 'raw',
  ): Promise<ReadRow[]> {
    const { text, values } = familyStatement(family, window, filters, metrics, source);
    // JIT off for the statement: a family's estimate (one group per row before grouping by period) passes the
    // JIT thresholds, and compiling took seconds at 1M orders where running took a fraction (docs/metrics.md#cost).
    // Its own transaction on the EntityManager's connection: the replica's when the resolver asked for it
    // (kit/database/read-replicas.ts), which `em.transactional` (always the primary) would not use.
    return inReadTransaction(this.em, async read => {
      await read('set local jit = off', []);
      return read(text, values);
    });
  }
}
