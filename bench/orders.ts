// The selling part of `npm run bench`:
//   (k) confirmed checkouts per second in the sandbox: create (POST /v1/checkouts/) and confirm with
//       pm_card_visa (POST /v1/checkouts/client/{secret}/confirm), BENCH_CHECKOUT_CONCURRENCY (4) loops,
//       taxed: the seller is in Germany and every buyer gives a French address (VAT on each checkout,
//       its update and its confirm, docs/tax.md#checkouts),
//       first with every customer e-mail switched off (what the service did before it sent any), then with
//       all of them on (the order confirmation queued with each sale, docs/email.md);
//   (o) GET /v1/orders/?limit=10 and (p) ?limit=100 (pages of about 450 KB) at 1,000 and 100,000 orders of
//       one organization (seeded in SQL by bench/seed-orders.ts) beside the one-hop baseline running the
//       same statements (bench/baseline-server.ts); BENCH_ORDER_SIZES=1000,100000 changes the sizes;
//   (p) then a burst of 300 connections on the 100-order page that the service must come through alive.
import { checkoutSeller, runSales } from './checkout-load.js';
import { seedOrders } from './seed-orders.js';
import type { Goal } from './subscriptions.js';
import autocannon from 'autocannon';
import {
  type Child,
  type LoadOptions,
  type LoadResult,
  loadCells,
  measure,
  memoryOf,
  sameJson,
  table,
} from './support.js';

// Issue 10 asks for the checkout rate and the orders p99 to be printed, with no goal of their own; a list
// endpoint's goal is the read path's (issue 9): at least half its one-hop baseline's rate.
const LIST_RATIO_GOAL = 0.5;

export async function benchCheckouts(o: {
  sandboxUrl: string;
  token: string;
  organizationId: string;
  seconds: number;
  warmupSeconds: number;
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const concurrency = Number(process.env.BENCH_CHECKOUT_CONCURRENCY ?? 4);
  const seller = await checkoutSeller({ baseUrl: o.sandboxUrl, token: o.token, organizationId: o.organizationId });
  const post = (path: string, body: unknown, auth = true, method = 'POST') =>
    seller.post(o.sandboxUrl, path, body, auth, method);
  const loops = Array.from({ length: concurrency }, () => () => seller.sell(o.sandboxUrl));
  const run = (seconds: number) => runSales(seconds, loops, o.log);
  // Polar's PATCH takes the whole object: the eight keys it requires, all on or all off.
  const emails = (on: boolean) =>
    post(
      `/v1/organizations/${o.organizationId}`,
      {
        customer_email_settings: Object.fromEntries(
          ['order_confirmation', 'subscription_cancellation', 'subscription_confirmation', 'subscription_cycled']
            .concat([
              'subscription_past_due',
              'subscription_revoked',
              'subscription_uncanceled',
              'subscription_updated',
            ])
            .map(k => [k, on]),
        ),
      },
      true,
      'PATCH',
    );
  const rows: string[][] = [];
  for (const on of [false, true]) {
    await emails(on);
    o.log(`(k) confirmed checkouts, ${concurrency} loops, customer e-mails ${on ? 'on' : 'off'}…`);
    if (o.warmupSeconds > 0) await run(o.warmupSeconds);
    const r = await run(o.seconds);
    rows.push([
      on ? '(k) create + confirm, e-mails on' : '(k) create + confirm, e-mails off (before issue 23)',
      r.perSecond.toFixed(1),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.count),
      String(r.failed),
    ]);
  }
  const report = [
    '',
    `Checkouts in the sandbox (create + confirm with pm_card_visa, one-time product, taxed: DE seller, FR buyer) · ${concurrency} loops · ${o.seconds} s`,
    '',
    table(['target', 'confirmed/s', 'confirm p50 ms', 'confirm p99 ms', 'confirmed', 'failed'], rows),
    '',
  ].join('\n');
  return {
    report,
    // Printed in the report; no goal is set for it.
    goals: [],
  };
}

/**
 * (o) GET /v1/orders/?limit=10 and (p) the same with pages of 100 by order count (BENCH_ORDER_SIZES), then,
 * with (p), the burst below: what bench/main.ts runs for either letter. Each report is printed as soon as it
 * is made (the pages' numbers stay on screen if the burst ends the service); the goals are returned.
 */
export async function benchOrderTargets(o: {
  only: Set<string>;
  quick: boolean;
  baseUrl: string;
  baselineUrl: string;
  databaseUrl: string;
  tenant: { organizationId: string; oat: string };
  load: Omit<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
  service: Child;
  baseline: Child;
  log: (line: string) => void;
}): Promise<Goal[]> {
  const { only, quick, tenant } = o;
  const sizes = process.env.BENCH_ORDER_SIZES?.split(',').map(Number) ?? (quick ? [1_000] : [1_000, 100_000]);
  const result = await benchOrders({
    ...o,
    organizationId: tenant.organizationId,
    token: tenant.oat,
    sizes,
    limits: [...(only.has('o') ? [10] : []), ...(only.has('p') ? [100] : [])],
    servicePid: o.service.process.pid,
    baselinePid: o.baseline.process.pid,
  });
  process.stdout.write(result.report);
  if (!only.has('p')) return result.goals;
  const burst = await burstOrders({
    ...o,
    token: tenant.oat,
    connections: Number(process.env.BENCH_BURST_CONNECTIONS ?? 300),
    seconds: Number(process.env.BENCH_BURST_SECONDS ?? (quick ? 6 : 10)),
  });
  process.stdout.write(burst.report);
  return [...result.goals, ...burst.goals];
}

export async function benchOrders(o: {
  baseUrl: string;
  baselineUrl: string;
  databaseUrl: string;
  organizationId: string;
  token: string;
  load: Omit<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
  sizes: number[];
  /** Page sizes measured at every size (10: target o; 100: target p). */
  limits: number[];
  /** The processes whose CPU time per request is printed. */
  servicePid?: number;
  baselinePid?: number;
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
    for (const limit of o.limits) {
      const path = `/v1/orders/?limit=${limit}`;
      const url = `${o.baseUrl}${path}`;
      const baselineUrl = `${o.baselineUrl}${path}`;
      const [service, baseline] = await Promise.all(
        [url, baselineUrl].map(u =>
          fetch(u, { headers: auth }).then(async r => ({ status: r.status, text: await r.text() })),
        ),
      );
      const target = limit >= 100 ? '(p)' : '(o)';
      if (service.status !== 200)
        throw new Error(`${target} answered ${service.status}: ${service.text.slice(0, 300)}`);
      if (baseline.status !== 200) throw new Error(`${target} baseline answered ${baseline.status}`);
      if (!sameJson(JSON.parse(service.text), JSON.parse(baseline.text)))
        o.log(`WARNING: baseline JSON differs for GET ${path} at ${size}`);
      const kb = `${(Buffer.byteLength(service.text) / 1024).toFixed(0)} KB`;
      o.log(`${target} GET ${path} at ${size} orders (${kb} a page)…`);
      const measured: [string, LoadResult][] = [
        [`${target} GET ${path}`, await measure({ ...o.load, url, headers: auth, serverPid: o.servicePid })],
        [
          `${target} one-hop baseline, same rows`,
          await measure({ ...o.load, url: baselineUrl, headers: auth, serverPid: o.baselinePid }),
        ],
      ];
      for (const [label, r] of measured) rows.push([`${label} @ ${size.toLocaleString('en')}`, kb, ...loadCells(r)]);
      const [service_, baseline_] = [measured[0][1], measured[1][1]];
      const ratio = service_.requestsPerSecond / baseline_.requestsPerSecond;
      goals.push({
        name: `GET ${path} @ ${size.toLocaleString('en')} orders, req/s ratio to the baseline (p99 ${service_.p99.toFixed(1)} ms, baseline ${baseline_.p99.toFixed(1)} ms)`,
        measured: ratio,
        goal: `≥ ${LIST_RATIO_GOAL}`,
        met: ratio >= LIST_RATIO_GOAL,
      });
    }
  }
  const report = [
    '',
    `GET /v1/orders/?limit=${o.limits.join(',')} (sorting -created_at) at ${o.sizes.map(s => s.toLocaleString('en')).join(' and ')} orders of one organization; seeding: ${seedTimes.join(', ')}`,
    '',
    table(['target', 'page', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'server CPU µs/req'], rows),
    '',
  ].join('\n');
  return { report, goals };
}

/**
 * (p) The memory sanity check: `connections` (300) clients at once on GET /v1/orders/?limit=100 for a
 * bounded time, against the service under `npm start`'s heap flags (224 MB old space) and against the
 * baseline. A page is about 450 KB; the service must come through alive (a V8 heap-limit crash ends the
 * process) and answer again once the backlog has drained. Requests still queued when a client's 10 s
 * timeout ends count as timeouts, not failures of the check: this is a sanity check, not a rate.
 */
export async function burstOrders(o: {
  baseUrl: string;
  baselineUrl: string;
  token: string;
  service: Child;
  baseline: Child;
  connections: number;
  seconds: number;
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const headers = { authorization: `Bearer ${o.token}` };
  const rows: string[][] = [];
  let serviceAlive = false;
  let servicePeak = 0;
  for (const [label, child, base] of [
    ['(p) service', o.service, o.baseUrl],
    ['(p) one-hop baseline', o.baseline, o.baselineUrl],
  ] as const) {
    const pid = child.process.pid!;
    o.log(`${label}: ${o.connections} connections for ${o.seconds} s on GET /v1/orders/?limit=100…`);
    let peak = memoryOf(pid)?.rssMb ?? NaN;
    const sampler = setInterval(() => {
      const rss = memoryOf(pid)?.rssMb;
      if (rss !== undefined && !(rss <= peak)) peak = rss;
    }, 100);
    const started = performance.now();
    let r: Awaited<ReturnType<typeof autocannon>>;
    try {
      r = await autocannon({
        url: `${base}/v1/orders/?limit=100`,
        headers,
        connections: o.connections,
        duration: o.seconds,
      });
    } finally {
      clearInterval(sampler);
    }
    // The backlog the clients gave up on still runs; the process is through when it answers again.
    const alive = child.process.exitCode === null && child.process.signalCode === null;
    const drained = alive ? await answersAgain(`${base}/v1/orders/?limit=1`, headers, 120_000) : NaN;
    if (child === o.service) {
      serviceAlive = alive && Number.isFinite(drained);
      servicePeak = peak;
    }
    rows.push([
      label,
      String(r['2xx']),
      (r['2xx'] / o.seconds).toFixed(1),
      r['2xx'] ? r.latency.p50.toFixed(0) : '-',
      String(r.timeouts),
      String(r.errors - r.timeouts + r.non2xx),
      peak.toFixed(0),
      alive ? `${((performance.now() - started) / 1000 - o.seconds).toFixed(1)} s` : 'DIED',
    ]);
    if (!alive) o.log(`${label} died during the burst:\n${child.output().slice(-2000)}`);
  }
  const report = [
    '',
    `Memory sanity: ${o.connections} connections at once on GET /v1/orders/?limit=100 for ${o.seconds} s (autocannon's 10 s timeout per request)`,
    '',
    table(['target', 'answered', 'req/s', 'p50 ms', 'timeouts', 'failed', 'peak RSS MB', 'drained after'], rows),
    '',
  ].join('\n');
  return {
    report,
    goals: [
      {
        name: `${o.connections}-connection burst of GET /v1/orders/?limit=100, the service under its 224 MB heap`,
        measured: servicePeak,
        goal: 'alive and answering after it',
        met: serviceAlive,
        unit: ` MB peak RSS, ${serviceAlive ? 'alive' : 'DIED or stuck'}`,
      },
    ],
  };
}

/** Milliseconds until `url` answers 200 again (NaN after `timeoutMs`). */
async function answersAgain(url: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const ok = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) }).then(
      r => r.ok,
      () => false,
    );
    if (ok) return performance.now() - started;
  }
  return Number.NaN;
}
