// What observability costs (`npm run bench`, target x; docs/observability.md#cost): target a (GET
// /v1/organizations/ through the embedded stack) on five fresh services over the first one's data, one per
// configuration: off; metrics (METRICS_PORT set and scraped every second, where Prometheus' usual interval
// is 15 s or more); traces (OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local sink that accepts and discards,
// bench/webhook-receiver.ts, with the exporter's default batching); both; and both with a tenth of the requests
// traced. Each service is first warmed for BENCH_OBSERVABILITY_WARMUP_SECONDS (10), then all are measured in
// turns (BENCH_OBSERVABILITY_ROUNDS rounds), so that none is the warmer, each round starting one configuration
// later, so that none always follows the same one. Printed as each configuration's best requests per second
// over off's best. Where `taskset` exists and there are two cores or more, the measured service runs on the
// first core and everything the bench starts besides (the other services, the load generator) on the rest, so
// that the generator does not take the measured service's core; PostgreSQL, not the bench's, is not pinned.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Child,
  freePort,
  listeningPort,
  type LoadOptions,
  type LoadResult,
  loadCells,
  machineLoad,
  measure,
  type ServiceLaunch,
  spawnNode,
  startReplica,
  table,
} from './support.js';
import type { Goal } from './subscriptions.js';

const RATIO_TARGET = 0.9;
const ROUNDS = Number(process.env.BENCH_OBSERVABILITY_ROUNDS ?? 2);
/** Load each fresh service takes before the rounds: its first seconds are its JIT's, not its configuration's. */
const WARM_UP_SECONDS = Number(process.env.BENCH_OBSERVABILITY_WARMUP_SECONDS ?? 10);
const SINK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'webhook-receiver.js');

export interface ObservabilityCostOptions extends ServiceLaunch {
  /** The bearer each is called with. */
  headers: Record<string, string>;
  load: Pick<LoadOptions, 'connections' | 'warmupSeconds' | 'seconds'>;
  log: (line: string) => void;
}

interface Configuration {
  label: 'off' | 'metrics' | 'traces' | 'both' | 'both, traces 10 %';
  metrics: boolean;
  traces: boolean;
  /** OTEL_TRACES_SAMPLER_ARG under parentbased_traceidratio; unset, every request is traced. */
  sampled?: string;
}

const CONFIGURATIONS: Configuration[] = [
  { label: 'off', metrics: false, traces: false },
  { label: 'metrics', metrics: true, traces: false },
  { label: 'traces', metrics: false, traces: true },
  { label: 'both', metrics: true, traces: true },
  // What docs/observability.md#traces suggests for production: a tenth of the requests traced.
  { label: 'both, traces 10 %', metrics: true, traces: true, sampled: '0.1' },
];

interface Started {
  configuration: Configuration;
  child: Child;
  url: string;
  metricsPort?: number;
  results: LoadResult[];
}

async function start(options: ObservabilityCostOptions, configuration: Configuration, sinkPort: number) {
  const metricsPort = await freePort();
  const { label, metrics, traces, sampled } = configuration;
  const { child, baseUrl } = await startReplica(options, `observability-${label}`, {
    ...(metrics ? { METRICS_PORT: String(metricsPort) } : {}),
    ...(traces ? { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}` } : {}),
    ...(sampled ? { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: sampled } : {}),
  });
  const url = `${baseUrl}/v1/organizations/`;
  return { configuration, child, url, metricsPort: metrics ? metricsPort : undefined, results: [] } as Started;
}

export async function benchObservabilityCost(
  options: ObservabilityCostOptions,
): Promise<{ report: string; goals: Goal[] }> {
  const children: Child[] = [];
  let scraper: NodeJS.Timeout | undefined;
  try {
    const sink = spawnNode(SINK, [], { PATH: process.env.PATH ?? '' });
    children.push(sink);
    const sinkPort = await listeningPort(sink);
    const started: Started[] = [];
    for (const configuration of CONFIGURATIONS) {
      const service = await start(options, configuration, sinkPort);
      children.push(service.child);
      started.push(service);
    }
    let scrapes = 0;
    scraper = setInterval(() => {
      for (const s of started.filter(s => s.metricsPort))
        void fetch(`http://127.0.0.1:${s.metricsPort}/metrics`)
          .then(res => res.text())
          .then(() => (scrapes += 1))
          .catch(() => undefined);
    }, 1000);
    const loadBefore = machineLoad();
    const pinned = canPin();
    for (const s of started) {
      if (pinned) pinAlone(s.child, children);
      options.log(`(x) warming ${s.configuration.label} for ${WARM_UP_SECONDS} s…`);
      await measure({
        ...options.load,
        warmupSeconds: 0,
        seconds: WARM_UP_SECONDS,
        url: s.url,
        headers: options.headers,
      });
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const turns = started.map((_, i) => started[(i + round - 1) % started.length]);
      for (const s of turns) {
        if (pinned) pinAlone(s.child, children);
        options.log(`(x) round ${round}/${ROUNDS}: target a, observability ${s.configuration.label}…`);
        s.results.push(
          await measure({ ...options.load, url: s.url, headers: options.headers, serverPid: s.child.process.pid }),
        );
      }
    }
    const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const off = best(started[0].results);
    const ratios = started
      .slice(1)
      .map(s => ({ label: s.configuration.label, ratio: best(s.results).requestsPerSecond / off.requestsPerSecond }));
    const rows = started.flatMap(s =>
      s.results.map((r, i) => [`${s.configuration.label}, round ${i + 1}`, ...loadCells(r)]),
    );
    const report = [
      '',
      `Observability cost: GET /v1/organizations/ · ${options.load.connections} connections · best of ${ROUNDS} · ${scrapes} scrapes · ${pinned ? 'the measured service on CPU 0, the bench and the other services on the rest' : 'not pinned'} · ${loadBefore} before, ${machineLoad()} after`,
      table(['observability', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'server CPU µs/req'], rows),
      ...ratios.map(
        ({ label, ratio }) =>
          `ratio ${label}/off: ${ratio.toFixed(2)}  (target ≥ ${RATIO_TARGET}: ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'})`,
      ),
      '',
    ].join('\n');
    const goals = ratios.map(({ label, ratio }) => ({
      name: `x ${label}/off`,
      measured: ratio,
      goal: `≥ ${RATIO_TARGET}`,
      met: ratio >= RATIO_TARGET,
    }));
    return { report, goals };
  } finally {
    clearInterval(scraper);
    await Promise.all(children.map(child => child.stop()));
  }
}

/** Whether processes can be pinned to cores: `taskset` (util-linux) present and two cores or more. */
function canPin(): boolean {
  if (os.cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `measured` (every thread) on CPU 0; the bench itself and the other children on the other cores. */
function pinAlone(measured: Child, children: Child[]): void {
  const rest = `1-${os.cpus().length - 1}`;
  const pin = (pid: number | undefined, cpus: string) => {
    if (pid !== undefined) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  };
  pin(process.pid, rest);
  for (const child of children) pin(child.process.pid, child === measured ? '0' : rest);
}
