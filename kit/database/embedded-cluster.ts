import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Config, ConfigError } from '../config.js';
import { portInUseMessage } from '../process/port-in-use.js';
import type { Secrets } from '../secrets.js';
import { embeddedClusterDir } from './embedded-cluster-location.js';
import { EmbeddedPostgres, PostgresPortInUse, runningPostmaster, stopOrphanPostmaster } from './embedded-postgres.js';
import { embeddedPostgresRuntime } from './embedded-postgres-runtime.js';

export interface EmbeddedCluster {
  /** Server URL without a database name. */
  serverUrl: string;
  /** Stops the database if this process started it. */
  stop(): Promise<void>;
}

const serverLock = (config: Config) => path.join(config.DATA_DIR, 'server.pid');

function livePid(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/**
 * The embedded PostgreSQL under DATA_DIR/pg (as root, possibly a link to a folder the OS user
 * `postgres` can reach: see embedded-cluster-location.ts), shared by `npm start` and the CLI:
 * - the server owns it (records its pid in DATA_DIR/server.pid) and stops it on exit;
 * - a postmaster left running by a server that crashed is stopped and started afresh;
 * - the CLI uses the running server's database when there is one, or runs it for the command's duration.
 */
export async function openEmbeddedCluster(
  config: Config,
  secrets: Secrets,
  role: 'server' | 'cli',
  onLog?: (line: string) => void,
): Promise<EmbeddedCluster> {
  await mkdir(config.DATA_DIR, { recursive: true, mode: 0o755 });
  const owner = livePid(serverLock(config));
  const runtime = await embeddedPostgresRuntime();
  const pgDir = await embeddedClusterDir(path.resolve(config.DATA_DIR), runtime.user);
  const postgres = new EmbeddedPostgres({
    runtime,
    dataDir: pgDir,
    port: config.EMBEDDED_PG_PORT,
    password: secrets.embeddedDatabasePassword,
    onLog,
  });
  if (owner !== undefined) {
    if (role === 'server')
      throw new Error(`Another server (pid ${owner}) is already running on ${config.DATA_DIR}. Stop it first.`);
    const running = runningPostmaster(pgDir);
    if (running)
      return {
        serverUrl: `postgresql://postgres:${encodeURIComponent(secrets.embeddedDatabasePassword)}@127.0.0.1:${running.port}`,
        stop: async () => undefined,
      };
  }
  await stopOrphanPostmaster(pgDir);
  await postgres.initialise();
  await postgres.start().catch(error => {
    // A taken port is the one failure a user fixes with a setting: one line that names it.
    if (error instanceof PostgresPortInUse)
      throw new ConfigError(portInUseMessage(error.port, "the embedded PostgreSQL's", 'EMBEDDED_PG_PORT'));
    throw error;
  });
  if (role === 'server') await writeFile(serverLock(config), String(process.pid));
  return {
    serverUrl: postgres.url,
    stop: async () => {
      await postgres.stop();
      if (role === 'server') await rm(serverLock(config), { force: true });
    },
  };
}
