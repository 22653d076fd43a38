// What tracing costs in instructions (`npm run bench` target x with BENCH_OBSERVABILITY_INSTRUCTIONS=N;
// docs/performance.md#observability-cost): the time rounds of target x spread by 10-30 % on a shared
// machine, more than the 10 % the goal is about, while an instruction count does not move with the
// machine's other work. Off and every request traced each run as a fresh service under
// `valgrind --tool=callgrind` with counting off; 3 × N requests of target a warm it (four at a time), and
// `callgrind_control` counts the next N. The ratio is off's instructions per request over traced's. A
// window that holds one of V8's full collections reads far higher than one that does not, so N should be
// a few thousand; under valgrind the service answers about 50 requests a second.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Goal } from './subscriptions.js';
import { type Child, listeningPort, type ServiceLaunch, spawnNode, startReplica, table } from './support.js';

/** What target x's options give: the service to start, its bearer, and the bench's log. */
export interface InstructionsOptions extends ServiceLaunch {
  headers: Record<string, string>;
  log: (line: string) => void;
}

const RATIO_TARGET = 0.9;
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

export async function benchObservabilityInstructions(
  options: InstructionsOptions,
  requests: number,
): Promise<{ report: string; goals: Goal[] }> {
  const sink = spawnNode(SINK, [], { PATH: process.env.PATH ?? '' });
  try {
    const sinkPort = await listeningPort(sink);
    const off = await instructionsPerRequest(options, 'off', {}, requests);
    const traced = await instructionsPerRequest(
      options,
      'traces',
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}` },
      requests,
    );
    const ratio = off / traced;
    const report = [
      '',
      `Observability cost in instructions: GET /v1/organizations/ under valgrind --tool=callgrind · ${3 * requests} requests of warm-up, ${requests} counted, four at a time`,
      table(
        ['observability', 'instructions per request'],
        [
          ['off', off.toFixed(0)],
          ['traces', traced.toFixed(0)],
        ],
      ),
      `capacity traces/off in instructions: ${ratio.toFixed(2)}  (target ≥ ${RATIO_TARGET}: ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'})`,
      '',
    ].join('\n');
    const goal = { name: 'x traces/off (instructions)', measured: ratio, goal: `≥ ${RATIO_TARGET}` };
    return { report, goals: [{ ...goal, met: ratio >= RATIO_TARGET }] };
  } finally {
    await sink.stop();
  }
}

async function instructionsPerRequest(
  options: InstructionsOptions,
  label: string,
  extra: NodeJS.ProcessEnv,
  requests: number,
): Promise<number> {
  const dumps = path.resolve(`${options.env.DATA_DIR ?? '.'}-callgrind-${label}`);
  await mkdir(dumps, { recursive: true });
  const wrapper = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dumps}/count.%p`];
  options.log(`(x) starting the service under callgrind, observability ${label} (minutes)…`);
  const { child, baseUrl } = await startReplica(options, `instructions-${label}`, extra, wrapper);
  // valgrind names the pipe callgrind_control talks through after USER and HOST as the service has them
  // (the bench sets HOST, the address it serves on): the control program must see the same.
  const control = (...args: string[]) =>
    execFileSync('callgrind_control', [...args, String(child.process.pid)], { stdio: 'ignore', env: options.env });
  try {
    const url = `${baseUrl}/v1/organizations/`;
    options.log(`(x) ${label}: ${3 * requests} requests of warm-up, then ${requests} counted…`);
    await inTurns(url, options.headers, 3 * requests, child);
    control('-i', 'on');
    await inTurns(url, options.headers, requests, child);
    control('-i', 'off');
    control('-d');
    const counted = await dumpedTotal(dumps);
    if (!counted)
      throw new Error(`callgrind wrote no count for ${label} within a minute:\n${child.output().slice(-2000)}`);
    return counted / requests;
  } finally {
    await child.stop(60_000);
    await rm(dumps, { recursive: true, force: true });
  }
}

/** `count` requests, four at a time; a failed one stops the bench with the service's output. */
async function inTurns(url: string, headers: Record<string, string>, count: number, child: Child): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (left-- > 0) {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}:\n${child.output().slice(-4000)}`);
      }
    }),
  );
}

/** The instructions in the dump `callgrind_control -d` asked for, which callgrind writes a moment later. */
async function dumpedTotal(dumps: string): Promise<number> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const name of await readdir(dumps)) {
      const total = /^totals: (\d+)/m.exec(await readFile(path.join(dumps, name), 'utf8'))?.[1];
      if (total) return Number(total);
    }
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  return 0;
}
