import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { TEST_SECRET } from './stack.js';

export { freePort } from './ports.js';

/**
 * The built embedded server (`<build>/embedded/main.js`) as a child process, for tests that kill it
 * where a step is half done (`FAULT_INJECTION_EXIT_AT`, kit/fault-injection.ts) and start it again.
 */

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Builds into a private folder (a concurrent build cannot delete files under the running server). */
export function buildServer(label: string): string {
  const dir = path.join(ROOT, '.build', `${label}-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', dir], { cwd: ROOT, stdio: 'pipe' });
  return dir;
}

export interface ServerProcess {
  child: ChildProcess;
  /** Resolves with the exit code (86 after a fault point). */
  exited: Promise<number | null>;
  /** Resolves once both environments serve. */
  ready: Promise<void>;
  output(): string;
}

export interface ServerSetup {
  buildDir: string;
  dataDir: string;
  productionUrl: string;
  sandboxUrl: string;
  /** The sandbox's port. */
  port: number;
  productionPort: number;
}

const spawned = new Set<ChildProcess>();

export function startServer(setup: ServerSetup, extra: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, [path.join(setup.buildDir, 'embedded', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: setup.dataDir,
      DATABASE_URL: setup.productionUrl,
      SANDBOX_DATABASE_URL: setup.sandboxUrl,
      SECRET: TEST_SECRET,
      PORT: String(setup.productionPort),
      SANDBOX_PORT: String(setup.port),
      LOG_LEVEL: 'silent',
      // Both environments' pools on a test database server that other test files share (`max_connections`).
      DATABASE_POOL_SIZE: '4',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  spawned.add(child);
  let output = '';
  const exited = new Promise<number | null>(resolve =>
    child.once('exit', code => {
      spawned.delete(child);
      resolve(code);
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', chunk => {
      output += chunk;
      if (output.includes('Sandbox API:')) resolve();
    });
    child.stderr!.on('data', chunk => (output += chunk));
    void exited.then(code => reject(new Error(`server exited during start (${code}):\n${output}`)));
  });
  return { child, exited, ready, output: () => output };
}

/** `promise`, or a failure after `ms` that says what was awaited and what the server printed. */
export function within<T>(promise: Promise<T>, ms: number, what: string, server: ServerProcess): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: nothing after ${ms} ms; the server printed:\n${server.output()}`)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves with its exit code. */
export async function stopServer(server: ServerProcess, graceMs = 20_000): Promise<number | null> {
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** What a test leaves running is killed (afterAll). */
export function killServers(): void {
  for (const child of spawned) child.kill('SIGKILL');
}

/** One statement on its own connection (the server's pools are in the child). */
export async function query<T>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}
