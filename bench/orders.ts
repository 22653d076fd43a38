// The selling part of `npm run bench`:
//   (k) confirmed checkouts per second in the sandbox: create (POST /v1/checkouts/) and confirm with
//       pm_card_visa (POST /v1/checkouts/client/{secret}/confirm), BENCH_CHECKOUT_CONCURRENCY (4) loops;
//   (o) p99 of GET /v1/orders/?limit=10 at 1,000 and 100,000 orders of one organization (seeded in SQL by
//       bench/seed-orders.ts) beside the one-hop baseline running the same statements
//       (bench/baseline-server.ts); BENCH_ORDER_SIZES=1000,100000 changes the sizes.
import { seedOrders } from './seed-orders.js';
import type { Goal } from './subscriptions.js';
import { type LoadOptions, type LoadResult, measure, sameJson, table } from './support.js';

// Issue 10 asks for the checkout rate and the orders p99 to be printed, with no goal of their own; a list
// endpoint's goal is the read path's (issue 9): at least half its one-hop baseline's rate.
const LIST_RATIO_GOAL = 0.5;

export async function benchCheckouts(o: {
  sandboxUrl: string;
  token: string;
  seconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const concurrency = Number(process.env.BENCH_CHECKOUT_CONCURRENCY ?? 4);
  const headers = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown, auth = true) => {
    const res = await fetch(`${o.sandboxUrl}${path}`, {
      method: 'POST',
      headers: auth ? headers : { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const product = await post('/v1/products/', {
    name: 'Bench checkout product',
    prices: [{ amount_type: 'fixed', price_amount: 1200 }],
  });
  let n = 0;
  const sell = async () => {
    n += 1;
    const checkout = await post('/v1/checkouts/', {
      products: [product.id],
      customer_email: `bench-buyer-${n}@example.com`,
    });
    const started = performance.now();
    await post(
      `/v1/checkouts/client/${checkout.client_secret}/confirm`,
      { confirmation_token_id: 'pm_card_visa' },
      false,
    );
    return performance.now() - started;
  };
  const run = async (seconds: number) => {
    const until = performance.now() + seconds * 1000;
    const latencies: number[] = [];
    let failed = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          try {
            latencies.push(await sell());
          } catch (error) {
            failed += 1;
            if (failed === 1) o.log(`checkout failed: ${(error as Error).message}`);
          }
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
    return { perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), count: latencies.length, failed };
  };
  o.log(`(k) confirmed checkouts, ${concurrency} loops…`);
  if (o.warmupSeconds > 0) await run(o.warmupSeconds);
  const r = await run(o.seconds);
  const report = [
    '',
    `Checkouts in the sandbox (create + confirm with pm_card_visa, one-time product) · ${concurrency} loops · ${o.seconds} s`,
    '',
    table(
      ['target', 'confirmed/s', 'confirm p50 ms', 'confirm p99 ms', 'confirmed', 'failed'],
      [
        [
          '(k) create + confirm',
          r.perSecond.toFixed(1),
          r.p50.toFixed(1),
          r.p99.toFixed(1),
          String(r.count),
          String(r.failed),
        ],
      ],
    ),
    '',
  ].join('\n');
  return {
    report,
    // Printed in the report; no goal is set for it.
    goals: [],
  };
}

export async function benchOrders(o: {
  baseUrl: string;
  baselineUrl: string;
  databaseUrl: string;
  organizationId: string;
  token: string;
  load: Omit<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
  sizes: number[];
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const auth = { authorization: `Bearer ${o.token}` };
  const rows: string[][] = [];
  const goals: Goal[] = [];
  const seedTimes: string[] = [];
  let seeded = 0;
  for (const size of o.sizes) {
    const { ms } = await seedOrders({
      databaseUrl: o.databaseUrl,
      organizationId: o.organizationId,
      count: size - seeded,
    });
    o.log(`seeded ${size - seeded} orders in ${ms} ms (${size} in the organization)`);
    seedTimes.push(`${(size - seeded).toLocaleString('en')} in ${(ms / 1000).toFixed(1)} s`);
    seeded = size;
    const url = `${o.baseUrl}/v1/orders/?limit=10`;
    const baselineUrl = `${o.baselineUrl}/v1/orders/?limit=10`;
    const [service, baseline] = await Promise.all(
      [url, baselineUrl].map(u =>
        fetch(u, { headers: auth }).then(async r => ({ status: r.status, body: await r.json() })),
      ),
    );
    if (service.status !== 200)
      throw new Error(`(o) answered ${service.status}: ${JSON.stringify(service.body).slice(0, 300)}`);
    if (baseline.status !== 200) throw new Error(`(o) baseline answered ${baseline.status}`);
    if (!sameJson(service.body, baseline.body)) o.log(`WARNING: baseline JSON differs for GET /v1/orders/ at ${size}`);
    o.log(`(o) GET /v1/orders/?limit=10 at ${size} orders…`);
    const measured: [string, LoadResult][] = [
      ['(o) GET /v1/orders/?limit=10', await measure({ ...o.load, url, headers: auth })],
      ['(o) one-hop baseline, same rows', await measure({ ...o.load, url: baselineUrl, headers: auth })],
    ];
    for (const [label, r] of measured)
      rows.push([
        `${label} @ ${size.toLocaleString('en')}`,
        r.requestsPerSecond.toFixed(0),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        String(r.errors + r.non2xx),
      ]);
    const [service_, baseline_] = [measured[0][1], measured[1][1]];
    const ratio = service_.requestsPerSecond / baseline_.requestsPerSecond;
    goals.push({
      name: `GET /v1/orders/?limit=10 @ ${size.toLocaleString('en')} orders, req/s ratio to the baseline (p99 ${service_.p99.toFixed(1)} ms, baseline ${baseline_.p99.toFixed(1)} ms)`,
      measured: ratio,
      goal: `≥ ${LIST_RATIO_GOAL}`,
      met: ratio >= LIST_RATIO_GOAL,
    });
  }
  const report = [
    '',
    `GET /v1/orders/?limit=10 (sorting -created_at) at ${o.sizes.map(s => s.toLocaleString('en')).join(' and ')} orders of one organization; seeding: ${seedTimes.join(', ')}`,
    '',
    table(['target', 'req/s', 'p50 ms', 'p99 ms', 'failed'], rows),
    '',
  ].join('\n');
  return { report, goals };
}
