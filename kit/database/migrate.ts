import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { DatabaseWaits } from '../config.js';
import { directUrlOf } from './direct-urls.js';

/**
 * Brings a subgraph's schema up to date (idempotent). A session-level advisory lock, held on a
 * connection of its own, serialises migrations when the server, the CLI and the tests start against
 * the same database at the same moment; that wait is a start-up's, not a request's, so it is not
 * bounded (a replica waits for another one's long index build). That connection is the direct URL's
 * (kit/database/direct-urls.ts): behind a pooler in transaction mode, a session lock would stay on a
 * server connection other clients get, and its unlock would go to another one.
 *
 * The migrations run in one transaction on the ORM's pool, whose sessions carry the request bounds
 * (kit/database/waits.ts): `SET LOCAL` gives this transaction the migrations' own statement and lock
 * timeout instead (`migrationTimeoutMs`, 0: none), since an index over a large table takes longer
 * than any request may, and the pool's connections keep their bounds afterwards. ONE transaction holds
 * nothing past its end, so it may go through a pooler in transaction mode.
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
    if ((await orm.migrator.getPending()).length === 0) return;
    const connection = orm.em.getConnection();
    const timeout = Math.max(0, Math.trunc(waits.migrationTimeoutMs));
    await connection.transactional(async transaction => {
      await connection.execute(`set local statement_timeout = ${timeout}`, [], 'run', transaction);
      await connection.execute(`set local lock_timeout = ${timeout}`, [], 'run', transaction);
      await orm.migrator.up({ transaction });
    });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    await lock.end();
  }
}
