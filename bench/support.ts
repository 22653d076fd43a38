// Process, port and measurement helpers for bench/main.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import autocannon from 'autocannon';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  process: ChildProcess;
  /** Everything the child wrote so far (stdout and stderr), for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns a Node script; its output is kept (last 64 kB) and shown when it dies unexpectedly. */
export function spawnNode(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  /** A program Node runs under, with its arguments (valgrind, for bench/observability-instructions.ts). */
  wrapper: string[] = [],
): Child {
  const command = [...wrapper, process.execPath, ...nodeArgs, script, ...args];
  const child = spawn(command[0], command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 65_536) output = output.slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  return {
    process: child,
    output: () => output,
    stop: async (graceMs = 20_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The port a helper child (bench/webhook-receiver.ts) prints as `listening <port>` once it listens. */
export function listeningPort(child: Child): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening (\d+)/.exec(child.output());
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      } else if (child.process.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`receiver exited:\n${child.output()}`));
      }
    }, 20);
  });
}

/** The machine's load averages (1, 5, 15 min) and cores, for the line above a table: the machine is shared. */
export function machineLoad(): string {
  const [one, five, fifteen] = os.loadavg().map(l => l.toFixed(1));
  return `load average ${one} / ${five} / ${fifteen} on ${os.cpus().length} cores`;
}

export interface ServiceLaunch {
  /** The embedded server's entry point, and the environment and Node flags the bench's service runs with. */
  service: string;
  env: NodeJS.ProcessEnv;
  nodeArgs: string[];
  /** The bench service's production database: another service over it serves the same data. */
  databaseUrl: string;
}

export interface StartedService {
  child: Child;
  baseUrl: string;
  sandboxUrl: string;
}

/**
 * Another embedded service over the bench's databases (a replica, as test/replicas runs them), on ports
 * and a DATA_DIR of its own, without the caller's METRICS_PORT and OTEL_* unless `extra` sets them.
 */
export async function startReplica(
  launch: ServiceLaunch,
  label: string,
  extra: NodeJS.ProcessEnv = {},
  wrapper: string[] = [],
): Promise<StartedService> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { ...launch.env };
  for (const key of Object.keys(env)) if (key.startsWith('OTEL_') || key === 'METRICS_PORT') delete env[key];
  Object.assign(env, {
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    DATABASE_URL: launch.databaseUrl,
    DATA_DIR: `${launch.env.DATA_DIR ?? '.'}-${label}`,
    ...extra,
  });
  const child = spawnNode(launch.service, [], env, launch.nodeArgs, wrapper);
  const baseUrl = `http://127.0.0.1:${port}`;
  // Under valgrind a start takes minutes, not seconds.
  await waitUntilReady(`${baseUrl}/readyz`, child, wrapper.length > 0 ? 600_000 : undefined);
  return { child, baseUrl, sandboxUrl: `http://127.0.0.1:${sandboxPort}` };
}

/** Runs a Node script to completion and returns its stdout (throws with its stderr on failure). */
export function runNode(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', c => (stdout += c));
    child.stderr.on('data', c => (stderr += c));
    child.once('error', reject);
    child.once('exit', code =>
      code === 0 ? resolve(stdout) : reject(new Error(`${script} exited with ${code}: ${stderr.trim()}`)),
    );
  });
}

/** Polls `url` until it answers 200, failing early when the child exits. */
export async function waitUntilReady(url: string, child: Child, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null)
      throw new Error(`process exited (${child.process.exitCode}) before ${url} was ready:\n${child.output()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms:\n${child.output()}`);
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** The serving process: its CPU time over the measured window is reported per request. */
  serverPid?: number;
  /** Requests per second over all connections (autocannon's overallRate); unset, as fast as answered. */
  rate?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  non2xx: number;
  /** Server CPU µs per request over the measured window (NaN without `serverPid`). */
  serverCpuUsPerRequest: number;
}

/** A warm-up run (discarded), then the measured run. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    ...(options.rate ? { overallRate: options.rate } : {}),
  };
  if (options.warmupSeconds > 0) await autocannon({ ...base, duration: options.warmupSeconds });
  const cpuBefore = processCpuMs(options.serverPid);
  const result = await autocannon({ ...base, duration: options.seconds });
  const total = result['2xx'] + result.non2xx;
  return {
    // The figure that the machine's other load disturbs least: what one request costs the server.
    serverCpuUsPerRequest: ((processCpuMs(options.serverPid) - cpuBefore) * 1000) / Math.max(total, 1),
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** CPU time (user + system) a process has used, from /proc (Linux; NaN elsewhere, without a pid or once it is gone). */
export function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A load result's cells: req/s, p50 ms, p99 ms, failed, server CPU µs/req. */
export function loadCells(r: LoadResult): string[] {
  return [
    r.requestsPerSecond.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors + r.non2xx),
    r.serverCpuUsPerRequest.toFixed(0),
  ];
}

/** Plain-text table with right-aligned numeric columns. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** JSON equality that ignores key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map(k => [k, canonical((v as any)[k])]),
      );
    return v;
  };
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
