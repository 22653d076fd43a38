// What the Prometheus endpoint costs (`npm run bench`, target x; docs/observability.md): target a (GET
// /v1/organizations/ through the embedded stack) on two fresh services over the first one's data, one
// with METRICS_PORT set and scraped every second (Prometheus' usual interval is 15 s or more), one
// without, started together and measured in turns (off, on, off, on), so that neither is the warmer.
// Printed as the ratio of their best requests per second.
import path from 'node:path';
import {
  type Child,
  freePort,
  type LoadOptions,
  type LoadResult,
  loadCells,
  measure,
  spawnNode,
  table,
  waitUntilReady,
} from './support.js';
import type { Goal } from './subscriptions.js';

const RATIO_TARGET = 0.9;
const ROUNDS = 2;

export interface PrometheusCostOptions {
  /** The embedded server's entry point, and the environment and Node flags the first service runs with. */
  service: string;
  env: NodeJS.ProcessEnv;
  nodeArgs: string[];
  /** The first service's production database (both services serve the same data). */
  databaseUrl: string;
  /** The bearer both are called with. */
  headers: Record<string, string>;
  load: Pick<LoadOptions, 'connections' | 'warmupSeconds' | 'seconds'>;
  log: (line: string) => void;
}

interface Started {
  child: Child;
  url: string;
  metricsPort?: number;
}

async function start(options: PrometheusCostOptions, label: string, metrics: boolean): Promise<Started> {
  const [port, sandboxPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawnNode(
    options.service,
    [],
    {
      ...options.env,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: path.join(options.env.DATA_DIR ?? '.', '..', `data-${label}`),
      ...(metrics ? { METRICS_PORT: String(metricsPort) } : {}),
    },
    options.nodeArgs,
  );
  await waitUntilReady(`http://127.0.0.1:${port}/readyz`, child);
  return { child, url: `http://127.0.0.1:${port}/v1/organizations/`, metricsPort: metrics ? metricsPort : undefined };
}

export async function benchPrometheusCost(options: PrometheusCostOptions): Promise<{ report: string; goals: Goal[] }> {
  const started: Started[] = [];
  let scraper: NodeJS.Timeout | undefined;
  try {
    const off = await start(options, 'metrics-off', false);
    started.push(off);
    const on = await start(options, 'metrics-on', true);
    started.push(on);
    let scrapes = 0;
    scraper = setInterval(() => {
      void fetch(`http://127.0.0.1:${on.metricsPort}/metrics`)
        .then(res => res.text())
        .then(() => (scrapes += 1))
        .catch(() => undefined);
    }, 1000);
    const run = (s: Started) =>
      measure({ ...options.load, url: s.url, headers: options.headers, serverPid: s.child.process.pid });
    const results: { on: LoadResult[]; off: LoadResult[] } = { on: [], off: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      options.log(`(x) round ${round}/${ROUNDS}: target a with METRICS_PORT unset, then set…`);
      results.off.push(await run(off));
      results.on.push(await run(on));
    }
    const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const [bestOn, bestOff] = [best(results.on), best(results.off)];
    const ratio = bestOn.requestsPerSecond / bestOff.requestsPerSecond;
    const row = (label: string, r: LoadResult) => [label, ...loadCells(r)];
    const report = [
      '',
      `Prometheus endpoint cost: GET /v1/organizations/ · ${options.load.connections} connections · best of ${ROUNDS} · ${scrapes} scrapes`,
      table(
        ['metrics', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'server CPU µs/req'],
        [...results.off.map(r => row('off', r)), ...results.on.map(r => row('on', r))],
      ),
      `ratio on/off: ${ratio.toFixed(2)}  (target ≥ ${RATIO_TARGET}: ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'})`,
      '',
    ].join('\n');
    return { report, goals: [{ name: 'x', measured: ratio, goal: `≥ ${RATIO_TARGET}`, met: ratio >= RATIO_TARGET }] };
  } finally {
    clearInterval(scraper);
    await Promise.all(started.map(s => s.child.stop()));
  }
}
