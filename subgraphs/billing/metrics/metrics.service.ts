import { CORE_READERS, scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import {
  answeredMetrics,
  isPolarMetricSlug,
  type MetricDefinition,
  type MetricFamily,
  type MetricType,
  requiredMetrics,
} from './metric.catalogue.js';
import { deriveMetrics, metricTotal, type PeriodValues } from './metric-periods.js';
import type { BillingType } from './metric-sql.js';
import { isTimeZone, isUnderLimits, type MetricInterval, metricWindow, periodTimestamp } from './metric-window.js';
import { rollupAnswers } from './metric-rollups.js';
import { MetricsQueries } from './metrics.queries.js';

export interface MetricsRequest {
  startDate: string;
  endDate: string;
  interval: MetricInterval;
  timezone?: string | null;
  organizationId?: string[] | null;
  productId?: string[] | null;
  billingType?: BillingType[] | null;
  customerId?: string[] | null;
  metrics?: string[] | null;
}

/** Polar's MetricsResponse, keys as on the wire (slugs are the keys of `totals` and of each period). */
export interface MetricsAnswer {
  periods: Array<Record<string, string | number>>;
  totals: Record<string, number>;
  metrics: Record<string, { slug: string; display_name: string; type: MetricType }>;
}

/**
 * `GET /v1/metrics/` (docs/metrics.md): validates as Polar (an unknown slug, a range over the interval's limit,
 * an unknown time zone: 422), runs one statement per family the requested metrics need, derives the rest per
 * period and totals them. Numbers are of the caller's organizations only, narrowed to `organizationId`: a
 * foreign organization narrows them to nothing (zeros), as Polar's readable-rows rule does.
 */
export class MetricsService {
  async get(ctx: RequestContext, request: MetricsRequest): Promise<MetricsAnswer> {
    const timezone = request.timezone ?? 'UTC';
    validate(request, timezone);
    const answered = answeredMetrics(request.metrics);
    const required = requiredMetrics(answered);
    // Each family's needed slugs: its statement leaves out what only the others need (docs/metrics.md#cost).
    const families = new Map<Exclude<MetricFamily, 'derived'>, Set<string>>();
    for (const m of required) {
      if (m.family === 'derived') continue;
      const slugs = families.get(m.family) ?? new Set<string>();
      families.set(m.family, slugs.add(m.slug));
    }
    const window = metricWindow(request.startDate, request.endDate, request.interval, timezone);
    const filters = {
      organizationIds: scopedOrganizationIds(ctx.principal, CORE_READERS, request.organizationId),
      productIds: request.productId,
      billingTypes: request.billingType,
      customerIds: request.customerId,
    };
    const queries = new MetricsQueries(ctx.em);
    // A family reads its rollup where the rule allows, its rows otherwise (docs/metrics.md#rollups).
    const rollups = families.size > 0 && (await queries.rollups().usable(window, filters));
    const results = await Promise.all(
      families.size
        ? [...families].map(([family, slugs]) =>
            queries.family(
              family,
              window,
              filters,
              slugs,
              rollups && rollupAnswers(family, slugs, window) ? 'rollup' : 'raw',
            ),
          )
        : [queries.family('series', window, filters)],
    );
    const periods = new Map<string, { instant: Date; values: PeriodValues }>();
    for (const rows of results) {
      for (const { period, instant, ...columns } of rows) {
        const key = String(period);
        let entry = periods.get(key);
        if (!entry) {
          entry = { instant: new Date(instant as string | Date), values: {} };
          periods.set(key, entry);
        }
        for (const [slug, value] of Object.entries(columns)) entry.values[slug] = Number(value);
      }
    }
    const ordered = [...periods.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const values = ordered.map(([, entry]) => deriveMetrics(entry.values, required));
    return {
      periods: ordered.map(([local, entry]) => {
        const period: Record<string, string | number> = { timestamp: periodTimestamp(local, entry.instant) };
        for (const m of answered) period[m.slug] = entry.values[m.slug] ?? 0;
        return period;
      }),
      totals: Object.fromEntries(answered.map(m => [m.slug, metricTotal(m, values)])),
      metrics: Object.fromEntries(answered.map(m => [m.slug, wireMetric(m)])),
    };
  }
}

const wireMetric = (m: MetricDefinition) => ({ slug: m.slug, display_name: m.displayName, type: m.type });

function validate(request: MetricsRequest, timezone: string): void {
  const unknown = [...new Set((request.metrics ?? []).filter(slug => !isPolarMetricSlug(slug)))].sort();
  if (unknown.length)
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['query', 'metrics'],
        msg: `Invalid metric slugs: ${unknown.join(', ')}`,
        input: request.metrics,
      },
    ]);
  if (!isTimeZone(timezone))
    throw new PolarRequestValidationError([
      { type: 'value_error', loc: ['query', 'timezone'], msg: 'Invalid timezone name.', input: timezone },
    ]);
  if (!isUnderLimits(request.startDate, request.endDate, request.interval))
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['query'],
        msg: 'The interval is too small for the given date range. Use a larger interval or reduce the date range.',
        input: [request.startDate, request.endDate, request.interval],
      },
    ]);
}
