// What observability costs (`npm run bench`, target x; docs/observability.md#cost): target a (GET
// /v1/organizations/ through the embedded stack) on six fresh services over the first one's data, one per
// configuration: off; metrics (METRICS_PORT set and scraped every second, where Prometheus' usual interval
// is 15 s or more); traces (OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local sink that accepts and discards,
// bench/webhook-receiver.ts, with the exporter's default batching); both; both with a tenth of the requests
// traced; and traces with none sampled. Each service is first warmed for BENCH_OBSERVABILITY_WARMUP_SECONDS (10); off's warm-up, run as fast
// as it answers, gives its throughput, and every round then offers each service the same steady rate, half of
// that (BENCH_OBSERVABILITY_RATE sets it), in turns (BENCH_OBSERVABILITY_ROUNDS rounds, each starting one
// configuration later, so that none always follows the same one).
//
// The ratio is a capacity: off's CPU per request over the configuration's (medians over the rounds), that
// is, how many requests a core serves with it on for each one it serves with it off. Throughput at
// saturation measured that on a machine with cores to spare for the load generator and PostgreSQL; on two
// cores it measured their share instead and moved by up to twice between rounds of the same service
// (docs/performance.md#observability-cost). Where `taskset` exists and there are two cores or more, the
// measured service runs alone on the first core, everything the bench starts besides on the rest;
// PostgreSQL, not the bench's, is not pinned.
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
import { benchObservabilityInstructions, canCountInstructions } from './observability-instructions.js';
import type { Goal } from './subscriptions.js';

const RATIO_TARGET = 0.9;
const ROUNDS = Number(process.env.BENCH_OBSERVABILITY_ROUNDS ?? 5);
/** The steady rate every round offers; unset, half of what off answered as fast as it could in its warm-up. */
const RATE = Number(process.env.BENCH_OBSERVABILITY_RATE ?? 0);
/** Load each fresh service takes before the rounds: its first seconds are its JIT's, not its configuration's. */
const WARM_UP_SECONDS = Number(process.env.BENCH_OBSERVABILITY_WARMUP_SECONDS ?? 10);
const START_APART_MS = 10_000;
const SINK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'webhook-receiver.js');

export interface ObservabilityCostOptions extends ServiceLaunch {
  /** The bearer each is called with. */
  headers: Record<string, string>;
  load: Pick<LoadOptions, 'connections' | 'warmupSeconds' | 'seconds'>;
  log: (line: string) => void;
}

interface Configuration {
  label: 'off' | 'metrics' | 'traces' | 'both' | 'both, traces 10 %' | 'traces, none sampled';
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
  // Tracing on and every request left out: what a request pays for tracing being on, without any span.
  { label: 'traces, none sampled', metrics: false, traces: true, sampled: '0' },
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

/**
 * The time rounds below, then, with BENCH_OBSERVABILITY_INSTRUCTIONS=N and valgrind present, the same cost
 * in instructions (bench/observability-instructions.ts), after the rounds' services have stopped.
 */
export async function benchObservabilityCost(
  options: ObservabilityCostOptions,
): Promise<{ report: string; goals: Goal[] }> {
  const timed = await timeRounds(options);
  const counted = Number(process.env.BENCH_OBSERVABILITY_INSTRUCTIONS ?? 0);
  if (counted <= 0) return timed;
  if (!canCountInstructions()) {
    options.log('(x) BENCH_OBSERVABILITY_INSTRUCTIONS set, but valgrind or callgrind_control is missing');
    return timed;
  }
  const instructions = await benchObservabilityInstructions(options, counted);
  return { report: timed.report + instructions.report, goals: [...timed.goals, ...instructions.goals] };
}

async function timeRounds(options: ObservabilityCostOptions): Promise<{ report: string; goals: Goal[] }> {
  const children: Child[] = [];
  let scraper: NodeJS.Timeout | undefined;
  try {
    const sink = spawnNode(SINK, [], { PATH: process.env.PATH ?? '' });
    children.push(sink);
    const sinkPort = await listeningPort(sink);
    const started: Started[] = [];
    for (const configuration of CONFIGURATIONS) {
      // A service opens ~20 connections as it starts and lets them go after pg-pool's 10 s of idleness:
      // six started back to back, with the bench's own, could pass PostgreSQL's default 100.
      if (started.length > 0) await new Promise(resolve => setTimeout(resolve, START_APART_MS));
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
    let offThroughput = Number.NaN;
    for (const s of started) {
      if (pinned) pinAlone(s.child, children);
      options.log(`(x) warming ${s.configuration.label} for ${WARM_UP_SECONDS} s…`);
      const warm = await measure({
        ...options.load,
        warmupSeconds: 0,
        seconds: WARM_UP_SECONDS,
        url: s.url,
        headers: options.headers,
      });
      if (s.configuration.label === 'off') offThroughput = warm.requestsPerSecond;
    }
    const rate = RATE > 0 ? RATE : Math.max(50, Math.round(offThroughput / 2));
    for (let round = 1; round <= ROUNDS; round++) {
      const turns = started.map((_, i) => started[(i + round - 1) % started.length]);
      for (const s of turns) {
        if (pinned) pinAlone(s.child, children);
        options.log(`(x) round ${round}/${ROUNDS}: target a at ${rate} req/s, observability ${s.configuration.label}…`);
        const result = await measure({
          ...options.load,
          rate,
          url: s.url,
          headers: options.headers,
          serverPid: s.child.process.pid,
        });
        failIfDown(s, result);
        s.results.push(result);
      }
    }
    const cpuPerRequest = (s: Started) => median(s.results.map(r => r.serverCpuUsPerRequest));
    const off = cpuPerRequest(started[0]);
    const ratios = started.slice(1).map(s => ({ label: s.configuration.label, ratio: off / cpuPerRequest(s) }));
    const rows = started.flatMap(s =>
      s.results.map((r, i) => [`${s.configuration.label}, round ${i + 1}`, ...loadCells(r)]),
    );
    const medians = started.map(s => [s.configuration.label, cpuPerRequest(s).toFixed(0)]);
    const report = [
      '',
      `Observability cost: GET /v1/organizations/ · ${options.load.connections} connections · off answered ${offThroughput.toFixed(0)} req/s as fast as it could · ${ROUNDS} rounds at ${rate} req/s · ${scrapes} scrapes · ${pinned ? 'the measured service on CPU 0, the bench and the other services on the rest' : 'not pinned'} · ${loadBefore} before, ${machineLoad()} after`,
      table(['observability', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'server CPU µs/req'], rows),
      table(['observability', 'server CPU µs/req, median'], medians),
      ...ratios.map(
        ({ label, ratio }) =>
          `capacity ${label}/off (off's CPU per request over ${label}'s): ${ratio.toFixed(2)}  (target ≥ ${RATIO_TARGET}: ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'})`,
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

/** A configuration whose requests failed: the bench stops with its service's output, not a ratio of nothing. */
function failIfDown(s: Started, result: LoadResult): void {
  if (result.errors + result.non2xx === 0) return;
  const state = s.child.process.exitCode === null ? 'still running' : `exited with ${s.child.process.exitCode}`;
  throw new Error(
    `observability ${s.configuration.label}: ${result.errors} failed and ${result.non2xx} non-2xx of ${result.total} requests (the service ${state}):\n${s.child.output().slice(-4000)}`,
  );
}

function median(values: number[]): number {
  const sorted = values.filter(v => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
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
