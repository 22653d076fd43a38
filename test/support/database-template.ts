import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { dropDatabase, withDatabase } from '../../kit/database/databases.js';
import { openBillingOrm } from '../../subgraphs/billing/orm.js';
import { openIdentityOrm } from '../../subgraphs/identity/orm.js';
import { openWebhooksOrm } from '../../subgraphs/webhooks/orm.js';

/**
 * Every test stack used to run every migration of the three subgraphs on two new databases: 4-5 s per
 * environment on a loaded two-core machine, before the file's first test. Instead the first file that
 * needs a migrated database builds a template once per set of migrations (its name carries a hash of
 * the migration files, so a new migration builds a new one), and each stack's database is a copy
 * (`CREATE DATABASE … TEMPLATE`, a file copy on the server). Starting an environment on the copy finds
 * nothing pending. The build is serialised between workers and concurrent runs by an advisory lock, and
 * published by a rename, so a build that died half-way is never copied. See docs/performance.md.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SUBGRAPHS = ['identity', 'billing', 'webhooks'];
const LOCK_KEY = 29_2911; // pg_advisory_lock key of the template build (issue 29)

let template: Promise<string> | undefined;

/**
 * Copies made ahead: a worker runs one file after another (docs/testing.md), so while a file runs, the
 * copies the next file's stack will take are made, and the next file does not wait for the server's copy
 * (about a second each on a loaded two-core machine). A copy that is taken is renamed to the name asked for.
 * The copies still spare when the worker ends are dropped by the run's global tear-down: their names carry
 * the run's id (TEST_RUN_ID, set by global set-up), so a concurrent run's copies are left alone.
 */
const SPARES = 2;
const spares: Promise<string>[] = [];

/**
 * The names of databases that outlive the file that made them (spare copies, a worker's shared stack:
 * test/support/shared-stack.ts) start with this, and the run's global tear-down drops them all.
 */
export const runDatabasePrefix = (runId: string) => `test_run_${runId}_`;

/** A new database of `server` copied from the migrated template; `drop()` removes it. */
export async function createMigratedDatabase(
  server: string,
  name: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  template ??= migratedTemplate(server);
  const source = await template;
  const spare = spares.shift();
  // Outside a Jest run (no run id) nothing would drop the spares: none are made.
  const runId = process.env.TEST_RUN_ID;
  while (runId && spares.length < SPARES) spares.push(copyOf(server, source, spareName(runId)).catch(() => ''));
  const copy = (spare && (await spare)) || (await copyOf(server, source, name));
  if (copy !== name) {
    await onServer(server, client =>
      client.query(`alter database ${client.escapeIdentifier(copy)} rename to ${client.escapeIdentifier(name)}`),
    );
  }
  return { url: withDatabase(server, name), drop: () => dropDatabase(server, name) };
}

/** `name`, a copy of `source` (`CREATE DATABASE … TEMPLATE`, a file copy on the server). */
async function copyOf(server: string, source: string, name: string): Promise<string> {
  await onServer(server, async client => {
    await client.query(`create database ${client.escapeIdentifier(name)} template ${client.escapeIdentifier(source)}`);
    await commitWithoutFlush(client, name);
  });
  return name;
}

/**
 * Drops run `runId`'s databases still on `server`, spare copies and shared stacks (global tear-down, once the
 * workers have ended; `with (force)` ends the sessions of a worker that was stopped with its stack open).
 */
export async function dropRunDatabases(server: string | undefined, runId: string | undefined): Promise<void> {
  if (!server || !runId) return;
  await onServer(server, async client => {
    const found = await client.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [runDatabasePrefix(runId)],
    );
    for (const { datname } of found.rows) {
      await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
    }
  });
}

function spareName(runId: string): string {
  return `${runDatabasePrefix(runId)}spare_${randomBytes(4).toString('hex')}`;
}

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const subgraph of SUBGRAPHS) {
    const dir = path.join(ROOT, 'subgraphs', subgraph, 'migrations');
    for (const file of (await readdir(dir)).filter(f => f.endsWith('.ts')).sort()) {
      hash.update(`${subgraph}/${file}\n`);
      hash.update(await readFile(path.join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function migratedTemplate(server: string): Promise<string> {
  const name = `test_template_${await migrationsHash()}`;
  return onServer(server, async client => {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return name;
      const building = `${name}_${randomBytes(3).toString('hex')}`;
      await client.query(`create database ${client.escapeIdentifier(building)}`);
      await commitWithoutFlush(client, building);
      try {
        const url = withDatabase(server, building);
        for (const open of [openIdentityOrm, openBillingOrm, openWebhooksOrm]) await (await open(url, 1)).close();
        await client.query(
          `alter database ${client.escapeIdentifier(building)} rename to ${client.escapeIdentifier(name)}`,
        );
      } catch (error) {
        await client.query(`drop database if exists ${client.escapeIdentifier(building)} with (force)`);
        throw error;
      }
      return name;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]);
    }
  });
}

/**
 * A test database's sessions commit without waiting for the WAL to reach the disk (`synchronous_commit =
 * off`, a database default, so every process on it gets it: the stack's pools, the CLI, a distributed part).
 * A commit is as visible and as atomic as before; only a crash of the PostgreSQL server itself could forget
 * the last moments, and no test survives that anyway. It made commits about four times faster on this
 * machine's disk (docs/performance.md#the-test-suites-budget).
 */
export async function commitWithoutFlush(client: pg.Client, database: string): Promise<void> {
  await client.query(`alter database ${client.escapeIdentifier(database)} set synchronous_commit = off`);
}

export async function onServer<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(server, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
