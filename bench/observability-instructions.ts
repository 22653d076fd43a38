// What observability costs in instructions (`npm run bench` target x with BENCH_OBSERVABILITY_INSTRUCTIONS=N;
// docs/performance.md#observability-cost): the time rounds of target x spread by 10-30 % on a shared
// machine, more than the 10 % the goal is about, while an instruction count does not move with the
// machine's other work. Off, metrics, every request traced, and both, each run as a fresh service under
// `valgrind --tool=callgrind` with counting off, two at a time; target a warms it (3 × N requests, at
// least 6,000: after 3,000 the JIT still compiled in the window), four at a time, and a service with
// metrics is scraped every 2,000 requests (about once a second at this machine's full speed, where
// Prometheus' default is every 15 s). Then the bench waits for one of V8's full collections
// (`--trace-gc` reports them), sends 2,000 more, and `callgrind_control` counts the next N requests,
// thread by thread. Each ratio is off's instructions per request over the configuration's on the main
// thread, where requests run: V8's background threads compile and mark for the whole process, and
// their share of a window swung by half between two runs of the same service (whether the window held
// a full collection, or the JIT recompiling what one threw away), more than tracing's whole cost. Their
// total is printed beside it. Under valgrind the service answers about 150 requests a second.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Goal } from './subscriptions.js';
import { type Child, freePort, listeningPort, type ServiceLaunch, spawnNode, startReplica, table } from './support.js';

/** What target x's options give: the service to start, its bearer, and the bench's log. */
export interface InstructionsOptions extends ServiceLaunch {
  headers: Record<string, string>;
  log: (line: string) => void;
}

const RATIO_TARGET = 0.9;
const MIN_WARM_UP = 6000;
/** How long to wait for a full collection before counting anyway, in requests. */
const MAX_WAIT_FOR_COLLECTION = 30_000;
const SETTLE_AFTER_COLLECTION = 2000;
const SCRAPE_EVERY = 2000;
const SINK = path.join(path.dirname(fileURLToPath(import.meta.url)), 'webhook-receiver.js');

/** Whether valgrind's callgrind and its control program are on this machine. */
export function canCountInstructions(): boolean {
  try {
    execFileSync('callgrind_control', ['-h'], { stdio: 'ignore' });
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Counted {
  label: string;
  perRequest: number;
  allThreads: number;
  collections: number;
}

export async function benchObservabilityInstructions(
  options: InstructionsOptions,
  requests: number,
): Promise<{ report: string; goals: Goal[] }> {
  const sink = spawnNode(SINK, [], { PATH: process.env.PATH ?? '' });
  const warmUp = Math.max(3 * requests, MIN_WARM_UP);
  try {
    const traces = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await listeningPort(sink)}` };
    const metrics = async () => ({ METRICS_PORT: String(await freePort()) });
    const window = async (label: string, extra: NodeJS.ProcessEnv) =>
      countedWindow(options, label, extra, warmUp, requests);
    // Two at a time: each service under valgrind runs on one core.
    const [off, metered] = await Promise.all([window('off', {}), window('metrics', await metrics())]);
    const [traced, both] = await Promise.all([
      window('traces', traces),
      window('both', { ...traces, ...(await metrics()) }),
    ]);
    const rows = [off, metered, traced, both];
    const ratio = (counted: Counted) => off.perRequest / counted.perRequest;
    const goals = rows.slice(1).map(counted => ({
      name: `x ${counted.label}/off (instructions)`,
      measured: ratio(counted),
      goal: `≥ ${RATIO_TARGET}`,
      met: ratio(counted) >= RATIO_TARGET,
    }));
    const report = [
      '',
      `Observability cost in instructions: GET /v1/organizations/ under valgrind --tool=callgrind · ${warmUp} requests of warm-up, then ${requests} counted from the next full collection on, four at a time · metrics scraped every ${SCRAPE_EVERY} requests`,
      table(
        ['observability', 'main thread per request', 'all threads per request', 'full collections in the window'],
        rows.map(c => [c.label, c.perRequest.toFixed(0), c.allThreads.toFixed(0), String(c.collections)]),
      ),
      ...rows
        .slice(1)
        .map(
          c =>
            `capacity ${c.label}/off in the main thread's instructions: ${ratio(c).toFixed(2)}  (target ≥ ${RATIO_TARGET}: ${ratio(c) >= RATIO_TARGET ? 'met' : 'NOT met'})`,
        ),
      '',
    ].join('\n');
    return { report, goals };
  } finally {
    await sink.stop();
  }
}

async function countedWindow(
  options: InstructionsOptions,
  label: string,
  extra: NodeJS.ProcessEnv,
  warmUp: number,
  requests: number,
): Promise<Counted> {
  const dumps = path.resolve(`${options.env.DATA_DIR ?? '.'}-callgrind-${label}`);
  await mkdir(dumps, { recursive: true });
  const wrapper = [
    'valgrind',
    '--tool=callgrind',
    '--separate-threads=yes',
    '--instr-atstart=no',
    `--callgrind-out-file=${dumps}/count.%p`,
  ];
  options.log(`(x) starting the service under callgrind, observability ${label} (minutes)…`);
  // Under valgrind a request lasts ~50 times as long, so V8's time-driven full collections (the memory
  // reducer's) would come ~50 times as often per request as at full speed: left to allocation alone.
  const launch = { ...options, nodeArgs: [...options.nodeArgs, '--trace-gc', '--no-memory-reducer'] };
  const { child, baseUrl } = await startReplica(launch, `instructions-${label}`, extra, wrapper);
  const fullCollections = fullCollectionsOf(child);
  // valgrind names the pipe callgrind_control talks through after USER and HOST as the service has them
  // (the bench sets HOST, the address it serves on): the control program must see the same.
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(child.process.pid)], { stdio: 'ignore', env: options.env });
  try {
    const url = `${baseUrl}/v1/organizations/`;
    const scrape = extra.METRICS_PORT ? `http://127.0.0.1:${extra.METRICS_PORT}/metrics` : undefined;
    let sinceScrape = 0;
    const afterEach = async () => {
      sinceScrape = (sinceScrape + 1) % SCRAPE_EVERY;
      if (!scrape || sinceScrape !== 0) return;
      const scraped = await fetch(scrape, { signal: AbortSignal.timeout(60_000) });
      if (!(await scraped.text()).includes('polar_http_request_total'))
        throw new Error(`${scrape} answered ${scraped.status} without the HTTP metrics`);
    };
    const send = (count: number) => inTurns(url, options.headers, count, child, afterEach);
    options.log(`(x) ${label}: ${warmUp} requests of warm-up, a full collection, then ${requests} counted…`);
    await send(warmUp);
    const seen = fullCollections();
    for (let sent = 0; fullCollections() === seen && sent < MAX_WAIT_FOR_COLLECTION; sent += 200) await send(200);
    // Right after a full collection the JIT compiles again what it threw away: that is left out too.
    await send(SETTLE_AFTER_COLLECTION);
    const before = fullCollections();
    control('-i', 'on');
    await send(requests);
    control('-i', 'off');
    const collections = fullCollections() - before;
    control('-d');
    const counted = await dumpedTotals(dumps);
    if (!counted)
      throw new Error(`callgrind wrote no count for ${label} within a minute:\n${child.output().slice(-2000)}`);
    return { label, perRequest: counted.main / requests, allThreads: counted.all / requests, collections };
  } finally {
    await child.stop(60_000);
    await rm(dumps, { recursive: true, force: true });
  }
}

/** How many full collections (`Mark-Compact` lines of `--trace-gc`) the service has reported so far. */
function fullCollectionsOf(child: Child): () => number {
  let count = 0;
  let carry = '';
  child.process.stdout?.on('data', (chunk: Buffer) => {
    const text = carry + chunk.toString();
    count += text.split('Mark-Compact').length - 1;
    // The end of a chunk is kept, so that a name cut in two is seen once, whole.
    carry = text.slice(-12).includes('Mark-Compact') ? '' : text.slice(-12);
  });
  return () => count;
}

/**
 * `count` requests, four at a time, `afterEach` run after each answer (a service with metrics is scraped
 * every SCRAPE_EVERY); a failed request stops the bench with the service's output.
 */
async function inTurns(
  url: string,
  headers: Record<string, string>,
  count: number,
  child: Child,
  afterEach: () => Promise<void>,
): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (left-- > 0) {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}:\n${child.output().slice(-4000)}`);
        await afterEach();
      }
    }),
  );
}

/**
 * The instructions in the dump `callgrind_control -d` asked for, which callgrind writes a moment later,
 * one file per thread (`-01` the main thread, where requests run); undefined when none came in a minute.
 */
async function dumpedTotals(dumps: string): Promise<{ main: number; all: number } | undefined> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const totals = new Map<string, number>();
    for (const name of await readdir(dumps)) {
      const total = /^totals: (\d+)/m.exec(await readFile(path.join(dumps, name), 'utf8'))?.[1];
      if (total) totals.set(name, Number(total));
    }
    const main = [...totals].find(([name]) => name.endsWith('-01'))?.[1];
    if (main !== undefined) return { main, all: [...totals.values()].reduce((sum, n) => sum + n, 0) };
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  return undefined;
}
