import type { Migration } from '@mikro-orm/migrations';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { DatabaseWaits } from '../config.js';
import { directUrlOf } from './direct-urls.js';

type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;

/**
 * Brings a subgraph's schema up to date (idempotent). A session-level advisory lock, held on a
 * connection of its own, serialises migrations when the server, the CLI and the tests start against
 * the same database at the same moment; that wait is a start-up's, not a request's, so it is not
 * bounded (a replica waits for another one's long index build). That connection is the direct URL's
 * (kit/database/direct-urls.ts): behind a pooler in transaction mode, a session lock would stay on a
 * server connection other clients get, and its unlock would go to another one.
 *
 * Consecutive transactional migrations run in one transaction on the ORM's pool, whose sessions carry
 * the request bounds (kit/database/waits.ts): `SET LOCAL` gives this transaction the migrations' own
 * statement and lock timeout instead (`migrationTimeoutMs`, 0: none), since an index over a large
 * table takes longer than any request may, and the pool's connections keep their bounds afterwards.
 * A migration whose `isTransactional()` is false (`CREATE INDEX CONCURRENTLY`, which PostgreSQL refuses
 * inside a transaction: docs/operations.md#migrations-that-keep-serving) runs on the lock's own
 * connection, with the same timeout, and is logged once its statements succeeded.
 * Each transaction holds nothing past its end, so it may go through a pooler in transaction mode; the
 * non-transactional ones use the lock's direct connection.
 */
export async function migrateSchema(
  orm: MikroORM,
  clientUrl: string,
  schema: string,
  lockKey: number,
  waits: DatabaseWaits,
): Promise<void> {
  const lock = new pg.Client({
    connectionString: directUrlOf(clientUrl),
    connectionTimeoutMillis: waits.acquireTimeoutMs,
  });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [lockKey]);
    await lock.query(`create schema if not exists ${schema}`);
    // Also creates the migrations table, outside the transaction (the migrator does that on its first
    // call, on a connection of its own: inside, it would wait for a second one).
    const pending = (await orm.migrator.getPending()).map(migration => migration.name);
    const timeout = Math.max(0, Math.trunc(waits.migrationTimeoutMs));
    for (const run of runsOf(orm, pending)) {
      if (run.transactional) await migrateInTransaction(orm, run.names, timeout);
      else await migrateOutsideTransaction(orm, lock, run.names[0], run.migration, timeout);
    }
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    await lock.end();
  }
}

type Run = { transactional: true; names: string[] } | { transactional: false; names: [string]; migration: Migration };

/** The pending migrations in order: each non-transactional one alone, the others grouped between them. */
function runsOf(orm: MikroORM, pending: string[]): Run[] {
  const classes = new Map(
    (orm.config.get('migrations').migrationsList ?? []).map(entry =>
      typeof entry === 'function' ? [entry.name, entry as MigrationClass] : [entry.name, entry.class as MigrationClass],
    ),
  );
  const runs: Run[] = [];
  for (const name of pending) {
    const Class = classes.get(name);
    const migration = Class ? new Class(orm.em.getDriver(), orm.config) : undefined;
    if (migration && !migration.isTransactional()) {
      runs.push({ transactional: false, names: [name], migration });
      continue;
    }
    const last = runs.at(-1);
    if (last?.transactional) last.names.push(name);
    else runs.push({ transactional: true, names: [name] });
  }
  return runs;
}

async function migrateInTransaction(orm: MikroORM, names: string[], timeout: number): Promise<void> {
  const connection = orm.em.getConnection();
  await connection.transactional(async transaction => {
    await connection.execute(`set local statement_timeout = ${timeout}`, [], 'run', transaction);
    await connection.execute(`set local lock_timeout = ${timeout}`, [], 'run', transaction);
    await orm.migrator.up({ transaction, migrations: names });
  });
}

/**
 * Each statement commits on its own. A crash half-way leaves the migration unlogged, so it runs again
 * at the next start: its statements must be safe to repeat (`IF NOT EXISTS`, and a concurrent index
 * build that failed leaves an INVALID index behind, which the migration drops first).
 */
async function migrateOutsideTransaction(
  orm: MikroORM,
  client: pg.Client,
  name: string,
  migration: Migration,
  timeout: number,
): Promise<void> {
  await migration.up();
  await client.query(`set statement_timeout = ${timeout}`);
  await client.query(`set lock_timeout = ${timeout}`);
  try {
    for (const statement of migration.getQueries()) {
      if (typeof statement !== 'string') throw new Error(`${name}: only SQL text can run outside a transaction`);
      await client.query(statement);
    }
  } finally {
    await client.query('reset statement_timeout');
    await client.query('reset lock_timeout');
  }
  await orm.migrator.getStorage().logMigration({ name });
}
