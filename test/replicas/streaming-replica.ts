import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../support/ports.js';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server binaries (POSTGRES_BIN names others). */
export const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why no replica can be started here, or null when it can. */
export function whyNoReplica(): string | null {
  for (const binary of ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'])
    if (!existsSync(path.join(POSTGRES_BIN, binary)))
      return `${path.join(POSTGRES_BIN, binary)} is missing (Debian: apt-get install postgresql-15)`;
  return null;
}

export interface StreamingPair {
  /** `postgresql://postgres@127.0.0.1:<port>/<database>` of the primary. */
  primaryUrl(database: string): string;
  /** The same database on the streaming replica. */
  replicaUrl(database: string): string;
  stopReplica(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A primary PostgreSQL of the test's own and a streaming replica of it (`pg_basebackup -R`), each on a
 * free loopback port, in a temporary folder. The primary is the test's own because the machine's server
 * refuses replication connections (its pg_hba has no `replication` line, and the test does not edit the
 * server's configuration). As root, the servers run as the OS user postgres (PostgreSQL refuses root).
 */
export async function startStreamingPair(): Promise<StreamingPair> {
  const dir = await mkdtemp(path.join(tmpdir(), 'replica-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await run('id', ['-u', 'postgres']).then(r => Number(r.stdout.trim())) : userInfo().uid;
  if (asRoot) await chown(dir, owner, owner);
  const as = (binary: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(POSTGRES_BIN, binary), ...args], { cwd: dir })
      : run(path.join(POSTGRES_BIN, binary), args, { cwd: dir });
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  await as('initdb', [
    '-D',
    primaryDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const hba = ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'];
  await writeFile(path.join(primaryDir, 'pg_hba.conf'), `${hba.join('\n')}\n`);
  if (asRoot) await chown(path.join(primaryDir, 'pg_hba.conf'), owner, owner);
  const options = (port: number) =>
    `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off ` +
    '-c shared_buffers=16MB -c max_connections=60 -c wal_level=replica -c max_wal_senders=4 -c hot_standby=on';
  const start = (dataDir: string, port: number) =>
    as('pg_ctl', ['-D', dataDir, '-o', options(port), '-l', path.join(dir, `${port}.log`), '-w', '-t', '60', 'start']);
  const stop = (dataDir: string) => as('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
  await start(primaryDir, primaryPort);
  let replicaRunning = false;
  try {
    await as('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R']);
    await start(replicaDir, replicaPort);
    replicaRunning = true;
  } catch (error) {
    await stop(primaryDir);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const url = (port: number, database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    primaryUrl: database => url(primaryPort, database),
    replicaUrl: database => url(replicaPort, database),
    stopReplica: async () => {
      if (replicaRunning) await stop(replicaDir);
      replicaRunning = false;
    },
    stop: async () => {
      if (replicaRunning) await stop(replicaDir);
      await stop(primaryDir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
