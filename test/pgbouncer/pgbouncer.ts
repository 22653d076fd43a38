import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../support/ports.js';

/** Where Debian's `pgbouncer` package puts the binary (PGBOUNCER names another one). */
export const PGBOUNCER_BINARY = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

export function pgbouncerInstalled(): boolean {
  return existsSync(PGBOUNCER_BINARY);
}

export interface RunningPgBouncer {
  port: number;
  /** `url` with host and port replaced by this PgBouncer's (same database, user and password). */
  pooled(url: string): string;
  /** What PgBouncer printed (for a failure's message). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A PgBouncer of its own in front of `serverUrl`'s PostgreSQL, in transaction pooling mode, on a free
 * loopback port: a generated ini, trust authentication of the users in a generated userlist (with the
 * server's password, which PgBouncer logs in with), every
 * database forwarded (`* =`). A small pool, so that one client's transactions land on different server
 * connections, which is what breaks session state. Resolves once it accepts connections.
 */
export async function startPgBouncer(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<RunningPgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || 'postgres');
  const dir = await mkdtemp(path.join(tmpdir(), 'pgbouncer-'));
  // PgBouncer will not run as root: it is started as the OS user postgres then, who must read these
  // (it logs to its stderr, kept for a failure's message).
  await chmod(dir, 0o755);
  const port = await freePort();
  const ini = [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'userlist.txt')}`,
    `admin_users = ${user}`,
    'pool_mode = transaction',
    `default_pool_size = ${options.poolSize ?? 4}`,
    'max_client_conn = 500',
    'server_reset_query =',
    'log_connections = 0',
    'log_disconnections = 0',
  ].join('\n');
  await writeFile(path.join(dir, 'pgbouncer.ini'), `${ini}\n`, { mode: 0o644 });
  // Clients are trusted; the password is the one PgBouncer logs in to the server with (the embedded
  // PostgreSQL asks for one, the machine's may not).
  const password = decodeURIComponent(server.password).replace(/"/g, '""');
  await writeFile(path.join(dir, 'userlist.txt'), `"${user}" "${password}"\n`, { mode: 0o644 });
  const asRoot = process.getuid?.() === 0;
  const args = [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')];
  const output: string[] = [];
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()));
  await acceptsConnections(port, child, () => output.join(''));
  return {
    port,
    pooled: url => {
      const pooled = new URL(url);
      pooled.hostname = '127.0.0.1';
      pooled.port = String(port);
      return pooled.toString();
    },
    log: () => output.join(''),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A process's database settings: through `bouncer` when there is one, with the direct URLs beside (LISTEN
 * and the migrations' lock bypass it, docs/pgbouncer.md), straight to PostgreSQL otherwise. `sandbox`: an
 * embedded server's second environment.
 */
export function databaseSettings(
  bouncer: RunningPgBouncer | undefined,
  production: string,
  sandbox?: string,
): Record<string, string> {
  const one = (prefix: '' | 'SANDBOX_', url: string): Record<string, string> =>
    bouncer
      ? { [`${prefix}DATABASE_URL`]: bouncer.pooled(url), [`${prefix}DATABASE_DIRECT_URL`]: url }
      : { [`${prefix}DATABASE_URL`]: url };
  return { ...one('', production), ...(sandbox === undefined ? {} : one('SANDBOX_', sandbox)) };
}

async function acceptsConnections(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}:\n${output()}`);
    const open = await new Promise<boolean>(resolve => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  throw new Error(`pgbouncer never listened on ${port}:\n${output()}`);
}
