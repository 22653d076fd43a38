import type { NextFunction, Request, Response } from 'express';
import { Counter, type Metric, type MetricValue } from 'prom-client';
import { metricsOn, metricsRegistry, statusClassOf } from './metrics.js';

/** The label of a request no route answered (404s, 405s, guards that answered before routing). */
export const UNMATCHED = 'unmatched';

const DURATION = 'polar_http_request_duration_seconds';
const BOUNDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * One label set of the duration histogram (environment, route template, method, status class): the
 * observations in each bucket (not yet cumulative), their sum and count.
 */
class DurationSeries {
  readonly inBucket = BOUNDS.map(() => 0);
  sum = 0;
  count = 0;

  constructor(readonly labels: Record<string, string>) {}

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < BOUNDS.length && seconds > BOUNDS[bucket]) bucket += 1;
    if (bucket < BOUNDS.length) this.inBucket[bucket] += 1;
    this.sum += seconds;
    this.count += 1;
  }

  values(): MetricValue<string>[] {
    let cumulative = 0;
    const buckets = BOUNDS.map((bound, index) => {
      cumulative += this.inBucket[index];
      return { labels: { ...this.labels, le: bound }, value: cumulative, metricName: `${DURATION}_bucket` };
    });
    return [
      ...buckets,
      { labels: { ...this.labels, le: '+Inf' }, value: this.count, metricName: `${DURATION}_bucket` },
      { labels: this.labels, value: this.sum, metricName: `${DURATION}_sum` },
      { labels: this.labels, value: this.count, metricName: `${DURATION}_count` },
    ] as MetricValue<string>[];
  }
}

/** Requests of one label set of the counter since the last scrape, and the duration series they feed. */
interface Tally {
  readonly labels: Record<string, string>;
  pending: number;
  readonly durations: DurationSeries;
}

/**
 * environment → route template → method → status → tally. A request finds its tally in three map
 * reads of strings it already has and adds to plain numbers; prom-client's own `inc` and `observe`
 * turned five labels into a key string and checked each label on every call, most of what metrics
 * cost a request (docs/observability.md#cost). The counter takes the tallies when it is scraped.
 */
const tallies = new Map<string, Map<string, Map<string, Map<number, Tally>>>>();
const series = new Map<string, DurationSeries>();

function tallyOf(environment: string, endpoint: string, method: string, status: number): Tally {
  let byEndpoint = tallies.get(environment);
  if (!byEndpoint) tallies.set(environment, (byEndpoint = new Map()));
  let byMethod = byEndpoint.get(endpoint);
  if (!byMethod) byEndpoint.set(endpoint, (byMethod = new Map()));
  let byStatus = byMethod.get(method);
  if (!byStatus) byMethod.set(method, (byStatus = new Map()));
  let tally = byStatus.get(status);
  if (!tally) {
    const statusClass = statusClassOf(status);
    const key = JSON.stringify([environment, endpoint, method, statusClass]);
    let durations = series.get(key);
    if (!durations) {
      durations = new DurationSeries({ environment, endpoint, method, status_class: statusClass });
      series.set(key, durations);
    }
    const labels = { environment, endpoint, method, status_code: String(status), status_class: statusClass };
    byStatus.set(status, (tally = { labels, pending: 0, durations }));
  }
  return tally;
}

function* everyTally(): Generator<Tally> {
  for (const byEndpoint of tallies.values())
    for (const byMethod of byEndpoint.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
}

new Counter({
  name: 'polar_http_request_total',
  help: 'HTTP requests answered, by route template (or "unmatched"), method and status',
  labelNames: ['environment', 'endpoint', 'method', 'status_code', 'status_class'] as const,
  registers: [metricsRegistry],
  collect() {
    for (const tally of everyTally()) {
      if (tally.pending === 0) continue;
      this.inc(tally.labels, tally.pending);
      tally.pending = 0;
    }
  },
});

/** The duration histogram, in the shape prom-client's registry reads from its own histograms. */
const durationFields = {
  name: DURATION,
  help: 'HTTP request duration in seconds, by route template and method',
  type: 'histogram',
  aggregator: 'sum',
};
const durationHistogram = {
  ...durationFields,
  get: async () => ({ ...durationFields, values: [...series.values()].flatMap(s => s.values()) }),
  // The tallies point at their series: both go, or later requests would feed series no scrape reads.
  reset: () => {
    series.clear();
    tallies.clear();
  },
};
metricsRegistry.registerMetric(durationHistogram as unknown as Metric);

/**
 * Counts and times every request of an Express app by the route's TEMPLATE (`/v1/customers/:id`),
 * read when the answer is finished: never the path itself, which carries ids, e-mails and tokens.
 * Routers are mounted at the root (rest-adapter/app.ts), so the route's own path is the whole template.
 */
export function httpMetrics(environment: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!metricsOn()) return next();
    const started = performance.now();
    res.once('finish', () => {
      const path = (req.route as { path?: unknown } | undefined)?.path;
      const endpoint = typeof path === 'string' ? path : path === undefined ? UNMATCHED : 'pattern';
      const tally = tallyOf(environment, endpoint, req.method, res.statusCode);
      tally.pending += 1;
      tally.durations.observe((performance.now() - started) / 1000);
    });
    next();
  };
}
