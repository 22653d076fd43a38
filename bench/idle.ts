// What the service costs with no traffic (`npm run bench`, target i): the CPU of the service's process
// tree (the node process and, on the embedded PostgreSQL, the postmaster with every backend and
// background process) over an idle window, and the PostgreSQL transactions both environments'
// databases ran in it. An idle service should wake only when work is written or falls due
// (docs/background-work.md), so both should be about nothing.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import type { Goal } from './subscriptions.js';

/** Below 2 % of one core over the window, and not one transaction. */
const CPU_SHARE_TARGET = 0.02;

export interface IdleBenchOptions {
  /** The service's pid: it and every process below it (the embedded PostgreSQL) are counted. */
  servicePid: number;
  /** A connection to the server's `postgres` database: the measuring queries run there, not in the measured ones. */
  serverUrl: string;
  /** The environments' databases (production, sandbox). */
  databases: string[];
  /** Quiet time before the window (the start's own work, and PostgreSQL's statistics, settle). */
  settleSeconds: number;
  seconds: number;
  log: (line: string) => void;
}

export async function benchIdle(options: IdleBenchOptions): Promise<{ report: string; goals: Goal[] }> {
  const { log } = options;
  log(`(i) idle: ${options.settleSeconds} s to settle, then ${options.seconds} s measured…`);
  await sleep(options.settleSeconds * 1000);
  const client = new pg.Client({ connectionString: options.serverUrl, application_name: 'bench-idle' });
  await client.connect();
  try {
    const transactionsBefore = await transactions(client, options.databases);
    const treeBefore = processTree(options.servicePid);
    const cpuBefore = treeCpuMs(treeBefore);
    const started = performance.now();
    // The service's own connections, looked at every few seconds (sooner than a pool closes an idle
    // connection, 10 s): a statement changes its connection's `state_change`, a new connection is new.
    const statements = new Set<string>();
    let seen = await clientBackends(client, options.databases);
    while (performance.now() - started < options.seconds * 1000) {
      await sleep(Math.min(5000, options.seconds * 1000 - (performance.now() - started)));
      const now = await clientBackends(client, options.databases);
      for (const [pid, backend] of now)
        if (seen.get(pid)?.activity !== backend.activity) statements.add(`${backend.name} (${backend.database})`);
      seen = now;
    }
    const cpuAfter = treeCpuMs(processTree(options.servicePid));
    const elapsedMs = performance.now() - started;
    // A backend reports its statistics at most once a second (when it goes idle): wait for the window's last.
    await sleep(1500);
    const transactionsAfter = await transactions(client, options.databases);
    const cpuMs = cpuAfter - cpuBefore;
    const share = cpuMs / elapsedMs;
    const delta = (name: string) => transactionsAfter[name].transactions - transactionsBefore[name].transactions;
    const perDatabase = options.databases.map(name => `${name} ${delta(name)}`);
    const total = options.databases.reduce((sum, name) => sum + delta(name), 0);
    // A connection opened and closed between two looks (none of the pools does that) is a session all the same.
    for (const name of options.databases) {
      const sessions = transactionsAfter[name].sessions - transactionsBefore[name].sessions;
      if (sessions > 0) statements.add(`${sessions} new connections (${name})`);
    }
    const postgresCounted = treeBefore.length > 1;
    // pg_stat_database counts autovacuum's transactions too (a visit per database and minute, two
    // transactions when it has nothing to do): with no statement from the service, they are all its.
    const service = statements.size === 0 ? 0 : total;
    const report = [
      '',
      `idle for ${(elapsedMs / 1000).toFixed(0)} s: ${cpuMs.toFixed(0)} ms of CPU in ${treeBefore.length} processes ` +
        `(${(share * 100).toFixed(2)} % of one core${postgresCounted ? '' : '; PostgreSQL is not a child of the service and is not counted'}), ` +
        `${total} PostgreSQL transactions (${perDatabase.join(', ')}); ` +
        (statements.size === 0
          ? "no statement from the service, so all of them autovacuum's"
          : `statements from ${[...statements].join(', ')}`),
      '',
    ].join('\n');
    return {
      report,
      goals: [
        {
          name: 'idle-cpu',
          measured: share * 100,
          shown: `${(share * 100).toFixed(2)} % of one core, ${service} PostgreSQL transactions by the service (${total - service} by autovacuum)`,
          goal: `< ${CPU_SHARE_TARGET * 100} % of one core and 0 transactions`,
          met: share < CPU_SHARE_TARGET && service === 0,
        },
      ],
    };
  } finally {
    await client.end();
  }
}

/** The client connections to `databases`, by pid: what identifies each, and when it last ran or finished a statement. */
async function clientBackends(
  client: pg.Client,
  databases: string[],
): Promise<Map<number, { name: string; database: string; activity: string }>> {
  const { rows } = await client.query<{ pid: number; name: string; datname: string; activity: string }>(
    `select pid, application_name as name, datname, backend_start::text || ' ' || coalesce(state_change::text, '') as activity
       from pg_stat_activity where datname = any($1) and backend_type = 'client backend'`,
    [databases],
  );
  return new Map(rows.map(r => [r.pid, { name: r.name || 'unnamed', database: r.datname, activity: r.activity }]));
}

/**
 * Committed and rolled back transactions per database since the statistics were reset, and client
 * sessions opened (autovacuum's workers are not sessions).
 */
async function transactions(
  client: pg.Client,
  databases: string[],
): Promise<Record<string, { transactions: number; sessions: number }>> {
  const { rows } = await client.query<{ datname: string; n: string; sessions: string }>(
    'select datname, xact_commit + xact_rollback as n, sessions from pg_stat_database where datname = any($1)',
    [databases],
  );
  const found = Object.fromEntries(
    rows.map(r => [r.datname, { transactions: Number(r.n), sessions: Number(r.sessions) }]),
  );
  for (const name of databases) if (!(name in found)) throw new Error(`no statistics for database ${name}`);
  return found;
}

/** `pid` and every process below it (Linux /proc; only `pid` elsewhere). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter(name => /^\d+$/.test(name));
  } catch {
    return [pid];
  }
  for (const entry of entries) {
    const fields = statFields(Number(entry));
    if (!fields) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * CPU time of the processes, children that exited included: utime + stime of each, plus cutime + cstime
 * (what its exited children used), so a backend that ends inside the window still counts, once.
 */
function treeCpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  // Clock ticks are 1/100 s on Linux.
  return ticks * 10;
}

/** The fields of /proc/<pid>/stat after the command name (state is [0], ppid [1], utime [11]…). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise(resolve => setTimeout(resolve, ms));
}
