// Scaling over API processes (`npm run bench`, target n; docs/performance.md#scaling-over-processes): 1, 2
// and 4 embedded services (`dist/embedded/main.js`, as `npm start` runs it) over the bench's one PostgreSQL,
// replicas as test/replicas runs them, each started fresh for its step and stopped after it. Each step
// spreads two loads evenly over its processes:
//   - the read path, GET /v1/organizations/ (target a's request), BENCH_CONNECTIONS connections split
//     across the processes, one autocannon per process, run together;
//   - confirmed checkouts (target k's sale, bench/checkout-load.ts), BENCH_SCALING_CHECKOUT_LOOPS (8) closed
//     loops dealt round-robin to the processes.
// Over each measured window it reads the CPU time of the services, of the PostgreSQL backends serving the
// bench's two databases (from pg_stat_activity's pids and /proc) and of this process (the load generator),
// and the whole machine's busy share (/proc/stat): the CPU per request of each part is what the projection
// in docs/performance.md is built on. Every step gets the same PostgreSQL connection budget: each process's
// pools are BENCH_SCALING_POOL_BUDGET (12) / processes connections (DATABASE_POOL_SIZE).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { checkoutSeller, type LoopResult, runSales } from './checkout-load.js';
import {
  type LoadOptions,
  machineLoad,
  processCpuMs,
  type ServiceLaunch,
  type StartedService,
  startReplica,
  table,
} from './support.js';

export interface ScalingOptions extends ServiceLaunch {
  /** The production tenant's bearer (the read path) and the sandbox tenant (the checkouts). */
  readHeaders: Record<string, string>;
  sandbox: { token: string; organizationId: string };
  load: Pick<LoadOptions, 'connections' | 'warmupSeconds' | 'seconds'>;
  log: (line: string) => void;
}

interface Cpu {
  /** CPU ms of the services, the PostgreSQL backends and the load generator, and the machine's busy ms. */
  services: number;
  postgres: number;
  generator: number;
  machineBusy: number;
  machineTotal: number;
}

interface Step {
  processes: number;
  reads: { perSecond: number; p50: number; p99: number; total: number; failed: number; cpu: Cpu };
  sales: LoopResult & { cpu: Cpu };
}

/** Busy and total jiffies of the whole machine (/proc/stat's first line), in ms. */
function machineMs(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3] + (fields[4] ?? 0);
  return { busy: ((total - idle) * 1000) / 100, total: (total * 1000) / 100 };
}

/** CPU used by `pids`, by PostgreSQL's backends of `databases`, by this process and the machine during `work`. */
async function cpuDuring<T>(pids: number[], databaseUrl: string, work: () => Promise<T>): Promise<[T, Cpu]> {
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const backends = async () =>
      (
        await client.query<{ pid: number }>(
          'select pid from pg_stat_activity where datname = any($1) and pid <> pg_backend_pid()',
          [[databaseName, `${databaseName}_sandbox`]],
        )
      ).rows.map(r => r.pid);
    const sum = (list: number[]) => list.map(processCpuMs).reduce((a, b) => a + (Number.isNaN(b) ? 0 : b), 0);
    const before = { services: sum(pids), backends: new Map((await backends()).map(p => [p, processCpuMs(p)])) };
    const generatorBefore = process.cpuUsage();
    const machineBefore = machineMs();
    const result = await work();
    const machineAfter = machineMs();
    const generator = process.cpuUsage(generatorBefore);
    let postgres = 0;
    // A backend that appeared during the window counts from zero; one that ended is not seen (a pool keeps its own).
    for (const pid of await backends()) {
      const now = processCpuMs(pid);
      if (!Number.isNaN(now)) postgres += now - (before.backends.get(pid) ?? 0);
    }
    return [
      result,
      {
        services: sum(pids) - before.services,
        postgres,
        generator: (generator.user + generator.system) / 1000,
        machineBusy: machineAfter.busy - machineBefore.busy,
        machineTotal: machineAfter.total - machineBefore.total,
      },
    ];
  } finally {
    await client.end();
  }
}

/** Target a's request on every process together, the connections split evenly; req/s summed. */
async function spreadReads(o: ScalingOptions, services: StartedService[], duration: number) {
  const share = (i: number) =>
    Math.max(1, Math.floor(o.load.connections / services.length) + (i < o.load.connections % services.length ? 1 : 0));
  const runs = await Promise.all(
    services.map((s, i) =>
      autocannon({ url: `${s.baseUrl}/v1/organizations/`, headers: o.readHeaders, connections: share(i), duration }),
    ),
  );
  const total = runs.reduce((a, r) => a + r['2xx'] + r.non2xx, 0);
  return {
    perSecond: runs.reduce((a, r) => a + r.requests.average, 0),
    // autocannon reports percentiles, not its histogram: p50 is the request-weighted mean of the processes'
    // medians, p99 the worst process's.
    p50: runs.reduce((a, r) => a + r.latency.p50 * (r['2xx'] + r.non2xx), 0) / Math.max(total, 1),
    p99: Math.max(...runs.map(r => r.latency.p99)),
    total,
    failed: runs.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0),
  };
}

async function step(o: ScalingOptions, processes: number): Promise<Step> {
  const poolSize = Math.max(2, Math.floor(Number(process.env.BENCH_SCALING_POOL_BUDGET ?? 12) / processes));
  const services: StartedService[] = [];
  try {
    for (let i = 0; i < processes; i++)
      services.push(await startReplica(o, `scaling-${processes}-${i}`, { DATABASE_POOL_SIZE: String(poolSize) }));
    const pids = services.map(s => s.child.process.pid!);
    o.log(`(n) ${processes} process(es), pools of ${poolSize}: the read path…`);
    if (o.load.warmupSeconds > 0) await spreadReads(o, services, o.load.warmupSeconds);
    const [reads, readCpu] = await cpuDuring(pids, o.databaseUrl, () => spreadReads(o, services, o.load.seconds));
    o.log(`(n) ${processes} process(es): confirmed checkouts…`);
    const seller = await checkoutSeller({ baseUrl: services[0].sandboxUrl, ...o.sandbox });
    const loops = Array.from({ length: Number(process.env.BENCH_SCALING_CHECKOUT_LOOPS ?? 8) }, (_, i) => {
      const url = services[i % services.length].sandboxUrl;
      return () => seller.sell(url);
    });
    if (o.load.warmupSeconds > 0) await runSales(o.load.warmupSeconds, loops, o.log);
    const [sales, saleCpu] = await cpuDuring(pids, o.databaseUrl, () => runSales(o.load.seconds, loops, o.log));
    return { processes, reads: { ...reads, cpu: readCpu }, sales: { ...sales, cpu: saleCpu } };
  } finally {
    await Promise.all(services.map(s => s.child.stop()));
  }
}

export async function benchScaling(o: ScalingOptions): Promise<string> {
  const counts = (process.env.BENCH_SCALING_PROCESSES ?? '1,2,4').split(',').map(Number);
  const loadBefore = machineLoad();
  const steps: Step[] = [];
  for (const processes of counts) steps.push(await step(o, processes));
  const perUnit = (ms: number, count: number, unit: number) => ((ms * unit) / Math.max(count, 1)).toFixed(0);
  const busy = (cpu: Cpu) => `${((100 * cpu.machineBusy) / Math.max(cpu.machineTotal, 1)).toFixed(0)}%`;
  const pgShare = (cpu: Cpu) => `${((100 * cpu.postgres) / Math.max(cpu.services + cpu.postgres, 1)).toFixed(0)}%`;
  return [
    '',
    `Scaling over API processes (embedded replicas, one PostgreSQL) · read path GET /v1/organizations/ at ${o.load.connections} connections · ` +
      `confirmed checkouts (create + confirm, taxed) in ${process.env.BENCH_SCALING_CHECKOUT_LOOPS ?? 8} loops · ${o.load.seconds} s each after ${o.load.warmupSeconds} s warm-up · ` +
      `${loadBefore} before, ${machineLoad()} after`,
    '',
    table(
      [
        'processes',
        'read req/s',
        'read p50 ms',
        'read p99 ms',
        'confirms/s',
        'confirm p50 ms',
        'confirm p99 ms',
        'failed',
      ],
      steps.map(s => [
        String(s.processes),
        s.reads.perSecond.toFixed(0),
        s.reads.p50.toFixed(1),
        s.reads.p99.toFixed(1),
        s.sales.perSecond.toFixed(1),
        s.sales.p50.toFixed(1),
        s.sales.p99.toFixed(1),
        String(s.reads.failed + s.sales.failed),
      ]),
    ),
    '',
    'CPU per request over the measured windows (services: all API processes; PostgreSQL: the backends of the bench databases;',
    'load generator: this process; a sale is its create and its confirm):',
    '',
    table(
      [
        'processes',
        'read: services µs',
        'PostgreSQL µs',
        'generator µs',
        'PG share',
        'machine busy',
        'sale: services ms',
        'PostgreSQL ms',
        'PG share',
        'machine busy',
      ],
      steps.map(s => [
        String(s.processes),
        perUnit(s.reads.cpu.services, s.reads.total, 1000),
        perUnit(s.reads.cpu.postgres, s.reads.total, 1000),
        perUnit(s.reads.cpu.generator, s.reads.total, 1000),
        pgShare(s.reads.cpu),
        busy(s.reads.cpu),
        (s.sales.cpu.services / Math.max(s.sales.count, 1)).toFixed(1),
        (s.sales.cpu.postgres / Math.max(s.sales.count, 1)).toFixed(1),
        pgShare(s.sales.cpu),
        busy(s.sales.cpu),
      ]),
    ),
    '',
  ].join('\n');
}
