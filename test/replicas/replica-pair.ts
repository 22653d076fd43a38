import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { databaseSettings, pgbouncerInstalled, type RunningPgBouncer, startPgBouncer } from '../pgbouncer/pgbouncer.js';
import { createMigratedTestDatabase, testServerUrl } from '../support/database.js';
import {
  buildServer,
  freePort,
  killServers,
  type ServerProcess,
  startServer,
  stopServer,
  within,
} from '../support/embedded-server.js';

/**
 * Two built `npm start` replicas (`<build>/embedded/main.js`) on one pair of databases (production and
 * sandbox, both migrated), behind the PgBouncer of test/pgbouncer in transaction pooling mode when its
 * binary is installed (straight to PostgreSQL otherwise): the set-up test/replicas/two-replicas.test.ts
 * and replicas-truth.test.ts share (docs/pgbouncer.md#many-replicas).
 */

export interface Replica {
  server: ServerProcess;
  /** The sandbox's address (the tests' tenants are sandbox tenants). */
  baseUrl: string;
}

export interface ReplicaPairOptions {
  /** Names the build folder, the data folder and the two databases. */
  label: string;
  /** Runs on the migrated databases before the replicas start (seeding, tenants the settings name). */
  prepare?: (databases: { production: string; sandbox: string }) => Promise<unknown>;
  /** Settings both replicas get on top of the database URLs; read after `prepare`. */
  settings?: () => Record<string, string>;
}

export class ReplicaPair {
  readonly replicas: Replica[] = [];
  private readonly databases: { url: string; drop: () => Promise<void> }[] = [];
  private buildDir: string | undefined;
  private dataDir: string | undefined;
  private bouncer: RunningPgBouncer | undefined;

  get production(): string {
    return this.databases[0].url;
  }

  get sandbox(): string {
    return this.databases[1].url;
  }

  /** Builds, makes the databases, runs `prepare`, starts both replicas and waits until both serve. */
  async start({ label, prepare, settings }: ReplicaPairOptions): Promise<void> {
    this.buildDir = buildServer(label);
    this.dataDir = await mkdtemp(path.join(os.tmpdir(), `billing-${label}-`));
    await chmod(this.dataDir, 0o755);
    this.databases.push(await createMigratedTestDatabase(`${label.replaceAll('-', '_')}_production`));
    this.databases.push(await createMigratedTestDatabase(`${label.replaceAll('-', '_')}_sandbox`));
    const { production, sandbox } = this;
    await prepare?.({ production, sandbox });
    // 16 server connections: two processes, each with pools whose transactions may wait for another pool
    // (docs/pgbouncer.md).
    if (pgbouncerInstalled()) this.bouncer = await startPgBouncer(testServerUrl(), { poolSize: 16 });
    const extra = { ...databaseSettings(this.bouncer, production, sandbox), ...settings?.() };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const setup = {
        buildDir: this.buildDir,
        dataDir: this.dataDir,
        productionUrl: production,
        sandboxUrl: sandbox,
        port,
        productionPort: await freePort(),
      };
      this.replicas.push({ server: startServer(setup, extra), baseUrl: `http://127.0.0.1:${port}` });
    }
    for (const { server } of this.replicas) await within(server.ready, 120_000, 'replica start', server);
  }

  /** Stops whatever `start` got to (a half-started pair too): replicas, PgBouncer, databases, folders. */
  async stop(): Promise<void> {
    for (const { server } of this.replicas) await stopServer(server).catch(() => undefined);
    killServers();
    await this.bouncer?.stop();
    for (const database of this.databases) await database.drop().catch(() => undefined);
    if (this.dataDir) await rm(this.dataDir, { recursive: true, force: true });
    if (this.buildDir) await rm(this.buildDir, { recursive: true, force: true });
  }
}
