// The metrics part of `npm run bench` (target m): GET /v1/metrics/ for a year at a daily interval, every
// metric, over one organization seeded by bench/seed-metrics.ts (BENCH_METRICS_ORDERS, default 1,000,000
// orders; BENCH_METRICS_SUBSCRIPTIONS, 100,000 subscriptions; BENCH_METRICS_CHECKOUTS, 100,000 checkouts),
// beside its baseline: the same hand-written statements (one per metric family, subgraphs/billing/metrics/)
// sent straight to PostgreSQL from this process, concurrently as the service sends them. Both run in
// BENCH_METRICS_LOOPS (4) loops for the bench's seconds; the goal is at least half the baseline's rate.
import pg from 'pg';
import { familyStatement, METRIC_CATALOGUE, metricWindow, rollupAnswers } from '../subgraphs/billing/runtime.js';
import { seedMetrics } from './seed-metrics.js';
import type { Goal } from './subscriptions.js';
import { table } from './support.js';

const RATIO_GOAL = 0.5;
const FAMILIES = ['subscriptions', 'subscription-events', 'orders', 'checkouts', 'seats'] as const;

export interface Run {
  perSecond: number;
  p50: number;
  p99: number;
  count: number;
}

/** `concurrency` loops calling `once` for `seconds`; the rate and the latency quantiles of the calls. */
export async function loops(seconds: number, concurrency: number, once: () => Promise<void>): Promise<Run> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await once();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), count: latencies.length };
}

export async function benchMetrics(o: {
  baseUrl: string;
  databaseUrl: string;
  tenant: { organizationId: string; oat: string };
  seconds: number;
  warmupSeconds: number;
  /** --quick: 100,000 orders, 10,000 subscriptions and checkouts (unless the environment says otherwise). */
  quick: boolean;
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const concurrency = Number(process.env.BENCH_METRICS_LOOPS ?? 4);
  const size = (name: string, full: number) => Number(process.env[name] ?? (o.quick ? full / 10 : full));
  const orders = size('BENCH_METRICS_ORDERS', 1_000_000);
  const subscriptions = size('BENCH_METRICS_SUBSCRIPTIONS', 100_000);
  const checkouts = size('BENCH_METRICS_CHECKOUTS', 100_000);
  const organizationId = o.tenant.organizationId;
  const { ms } = await seedMetrics({
    databaseUrl: o.databaseUrl,
    organizationId,
    orders,
    subscriptions,
    checkouts,
  });
  o.log(`(m) seeded ${orders} orders, ${subscriptions} subscriptions, ${checkouts} checkouts in ${ms} ms`);

  const end = new Date();
  const start = new Date(end.getTime() - 365 * 86_400_000);
  const [startDate, endDate] = [start, end].map(d => d.toISOString().slice(0, 10));
  const url = `${o.baseUrl}/v1/metrics/?start_date=${startDate}&end_date=${endDate}&interval=day`;
  const headers = { authorization: `Bearer ${o.tenant.oat}` };
  const window = metricWindow(startDate, endDate, 'day', 'UTC');
  // Each family from where the service reads it for this request (every metric): its rollup where the rule allows
  // (docs/metrics.md#rollups: the checkouts here), its rows otherwise, so both sides compute the same way.
  const statements = FAMILIES.map(f => {
    const slugs = new Set(METRIC_CATALOGUE.filter(m => m.family === f).map(m => m.slug));
    const source = rollupAnswers(f, slugs, window) ? 'rollup' : 'raw';
    return familyStatement(f, window, { organizationIds: [organizationId] }, slugs, source);
  });
  // As the service sends them: with JIT off (subgraphs/billing/metrics/metrics.queries.ts).
  const pool = new pg.Pool({
    connectionString: o.databaseUrl,
    max: concurrency * FAMILIES.length,
    options: '-c jit=off',
  });
  try {
    const service = async () => {
      const res = await fetch(url, { headers });
      const body = (await res.json()) as { periods: unknown[]; totals: Record<string, number> };
      if (res.status !== 200) throw new Error(`(m) answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      return body;
    };
    const baseline = async () => Promise.all(statements.map(s => pool.query(s.text, s.values)));

    // The same numbers: the service's totals against the baseline's rows.
    const answer = await service();
    const rows = await baseline();
    const orderCount = rows[2].rows.reduce((acc, r) => acc + Number(r.orders), 0);
    const mrr = Number(rows[0].rows.at(-1)?.monthly_recurring_revenue ?? 0);
    if (answer.totals.orders !== orderCount || answer.totals.monthly_recurring_revenue !== mrr)
      o.log(`WARNING: (m) service totals differ from the baseline's (orders ${orderCount}, MRR ${mrr})`);
    o.log(
      `(m) ${answer.periods.length} periods, ${answer.totals.orders} orders, MRR ${answer.totals.monthly_recurring_revenue}`,
    );

    if (o.warmupSeconds > 0) {
      await loops(o.warmupSeconds, concurrency, async () => void (await service()));
      await loops(o.warmupSeconds, concurrency, async () => void (await baseline()));
    }
    o.log(`(m) GET /v1/metrics/ (a year, daily), ${concurrency} loops…`);
    const measuredService = await loops(o.seconds, concurrency, async () => void (await service()));
    o.log('(m) the same statements straight to PostgreSQL…');
    const measuredBaseline = await loops(o.seconds, concurrency, async () => void (await baseline()));
    const row = (label: string, r: Run) => [
      label,
      r.perSecond.toFixed(2),
      r.p50.toFixed(0),
      r.p99.toFixed(0),
      String(r.count),
    ];
    const seeded = `${orders.toLocaleString('en')} orders, ${subscriptions.toLocaleString('en')} subscriptions, ${checkouts.toLocaleString('en')} checkouts`;
    const ratio = measuredService.perSecond / measuredBaseline.perSecond;
    const report = [
      '',
      `GET /v1/metrics/ · ${startDate} → ${endDate}, interval day, every metric · ${seeded} · ${concurrency} loops · ${o.seconds} s`,
      '',
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests'],
        [
          row('(m) GET /v1/metrics/', measuredService),
          row('(m) baseline: the 5 family statements, straight to PostgreSQL', measuredBaseline),
        ],
      ),
      '',
    ].join('\n');
    return {
      report,
      goals: [
        {
          name: `GET /v1/metrics/ (a year, daily) @ ${seeded}, req/s ratio to its SQL (p50 ${measuredService.p50.toFixed(0)} ms, SQL ${measuredBaseline.p50.toFixed(0)} ms)`,
          measured: ratio,
          goal: `≥ ${RATIO_GOAL}`,
          met: ratio >= RATIO_GOAL,
        },
      ],
    };
  } finally {
    await pool.end();
  }
}
