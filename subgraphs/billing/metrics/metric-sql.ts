import type { MetricWindow } from './metric-window.js';

export type BillingType = 'recurring' | 'one_time';

/** What a request narrows the numbers to; the organizations are already the caller's scope (tenant rule). */
export interface MetricFilters {
  organizationIds: string[];
  productIds?: string[] | null;
  billingTypes?: BillingType[] | null;
  customerIds?: string[] | null;
}

/** The columns of a table the filters apply to. */
export interface ScopedColumns {
  organization: string;
  /** The product column; `anyOf` is an array column matched by overlap (a checkout's offered products). */
  product: string | { anyOf: string; billingType: string };
  /** Absent for a rollup, which has no customers: a request with a customer filter never reads one. */
  customer?: string;
}

/**
 * Builds one family's statement: `$n` parameters bound by PostgreSQL (each value once, however often the text
 * uses it), periods as wall-clock times of the request's time zone (`series`), and the filters as conditions.
 * The text depends only on the request's shape (interval, which filters, one organization or several, and which of
 * the family's costly parts its metrics need: `asks`), so it is prepared once per shape
 * (kit/database/read/execute.ts): a few variants per family, never one per request.
 */
export class MetricSql {
  readonly values: unknown[] = [];
  private readonly slots = new Map<string, string>();

  /** `metrics`: the slugs the request needs of this family; absent, every metric of it. */
  constructor(
    readonly window: MetricWindow,
    readonly filters: MetricFilters,
    private readonly metrics?: ReadonlySet<string>,
  ) {}

  /**
   * Whether any of these metrics is needed: a family leaves out the part (CTE, window, join) only they need
   * when none is (docs/metrics.md#cost), and its statement then has no column for them.
   */
  asks(...slugs: string[]): boolean {
    return !this.metrics || slugs.some(slug => this.metrics!.has(slug));
  }

  private param(key: string, value: unknown, cast: string): string {
    let slot = this.slots.get(key);
    if (!slot) {
      this.values.push(value);
      slot = `$${this.values.length}::${cast}`;
      this.slots.set(key, slot);
    }
    return slot;
  }

  get timezone(): string {
    return this.param('tz', this.window.timezone, 'text');
  }

  /** The interval's name, a literal: it comes from the fixed list of intervals, never from free text. */
  get unit(): string {
    return `'${this.window.interval}'`;
  }

  /** The period an instant falls in: the start of its interval on the request's wall clock. */
  bucket(instant: string): string {
    return `date_trunc(${this.unit}, ${instant} at time zone ${this.timezone})`;
  }

  get seriesStart(): string {
    return this.param('seriesStart', this.window.seriesStart, 'timestamp');
  }

  get seriesEnd(): string {
    return this.param('seriesEnd', this.window.seriesEnd, 'timestamp');
  }

  /** The first and last instants the request asked for (its dates, in its time zone). */
  get boundStart(): string {
    return `(${this.param('boundStart', this.window.boundStart, 'timestamp')} at time zone ${this.timezone})`;
  }

  get boundEnd(): string {
    return `(${this.param('boundEnd', this.window.boundEnd, 'timestamp')} at time zone ${this.timezone})`;
  }

  /** `series(t)`: one row per period, `t` its start on the wall clock. */
  seriesCte(): string {
    return `series as (select t from generate_series(${this.seriesStart}, ${this.seriesEnd}, interval '1 ${this.window.interval}') t)`;
  }

  /** The period's columns every family answers: its wall-clock start and that instant. */
  periodColumns(t: string): string {
    return `to_char(${t}, 'YYYY-MM-DD HH24:MI:SS') as period, (${t} at time zone ${this.timezone}) as instant`;
  }

  /** The conditions of the caller's organizations and the request's filters, for one table's columns. */
  scope(columns: ScopedColumns): string {
    const { organizationIds, productIds, billingTypes, customerIds } = this.filters;
    const conditions =
      organizationIds.length === 1
        ? [`${columns.organization} = ${this.param('org', organizationIds[0], 'uuid')}`]
        : [`${columns.organization} = any(${this.param('orgs', organizationIds, 'uuid[]')})`];
    const product = typeof columns.product === 'string' ? columns.product : columns.product.billingType;
    if (productIds?.length) {
      const ids = this.param('products', productIds, 'uuid[]');
      conditions.push(
        typeof columns.product === 'string' ? `${product} = any(${ids})` : `${columns.product.anyOf} && ${ids}`,
      );
    }
    const types = new Set(billingTypes ?? []);
    if (types.size === 1) {
      const recurring = types.has('recurring') ? 'is not null' : 'is null';
      conditions.push(
        `exists (select 1 from billing.products bp where bp.id = ${product} and bp.recurring_interval ${recurring})`,
      );
    }
    if (customerIds?.length && columns.customer)
      conditions.push(`${columns.customer} = any(${this.param('customers', customerIds, 'uuid[]')})`);
    return conditions.join(' and ');
  }
}
