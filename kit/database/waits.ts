import type { DatabaseWaits } from '../config.js';
import { ServiceUnavailable } from '../errors.js';
import { isPooledUrl } from './direct-urls.js';

/**
 * Bounded waits on the database (docs/reliability.md#database-waits). Without them one request
 * that waits for a lock while holding a pooled connection, behind a holder that needs one more
 * connection than the pool has left, hangs every request of the environment until a restart.
 */

/**
 * The `pg` client settings that bound every wait of a pooled connection: `connectionTimeoutMillis`
 * bounds taking a connection from the pool (pg-pool applies it to queued requests too) and opening
 * one; the three others are PostgreSQL settings sent at connection start, so they hold for every
 * statement of the session. A setting of 0 is left out (the server's default, normally none).
 *
 * Through a pooler (`clientUrl` declared pooled, kit/database/direct-urls.ts) only the first is given:
 * PgBouncer refuses a connection that sends other settings at start, and a session setting would not
 * follow the client from one server connection to the next anyway. The server bounds come from the
 * database role there (docs/pgbouncer.md).
 */
export function pooledConnectionSettings(waits: DatabaseWaits, clientUrl: string): Record<string, number> {
  const settings: Record<string, number> = { connectionTimeoutMillis: waits.acquireTimeoutMs };
  if (isPooledUrl(clientUrl)) return settings;
  if (waits.statementTimeoutMs > 0) settings.statement_timeout = waits.statementTimeoutMs;
  if (waits.lockTimeoutMs > 0) settings.lock_timeout = waits.lockTimeoutMs;
  if (waits.idleInTransactionTimeoutMs > 0)
    settings.idle_in_transaction_session_timeout = waits.idleInTransactionTimeoutMs;
  return settings;
}

/** Which bounded wait an error reports. */
export type DatabaseWait = 'connection' | 'statement' | 'lock' | 'idle_in_transaction';

const WAIT_BY_SQLSTATE: Record<string, DatabaseWait> = {
  '57014': 'statement', // query_canceled: statement_timeout (or a cancel)
  '55P03': 'lock', // lock_not_available: lock_timeout (or NOWAIT, which its callers catch first)
  '25P03': 'idle_in_transaction', // idle_in_transaction_session_timeout
};

/** pg-pool's message when no connection was free in time; pg's when opening one took too long. */
const CONNECTION_TIMEOUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/**
 * The bounded wait `error` reports, or null. MikroORM wraps the driver's error (keeping its SQLSTATE
 * as `code`), GraphQL wraps that in turn (`originalError`), and a few callers keep it as `cause`: all
 * are looked through.
 */
export function databaseWaitOf(error: unknown): DatabaseWait | null {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; originalError?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && WAIT_BY_SQLSTATE[candidate.code]) return WAIT_BY_SQLSTATE[candidate.code];
    if (typeof candidate.message === 'string' && CONNECTION_TIMEOUT.test(candidate.message)) return 'connection';
    current = candidate.originalError ?? candidate.cause;
  }
  return null;
}

const WHAT_TOOK_TOO_LONG: Record<DatabaseWait, string> = {
  connection: 'no database connection was free in time',
  statement: 'a database statement ran past its time limit',
  lock: 'a database lock was not granted in time',
  idle_in_transaction: 'a database transaction was left idle past its time limit',
};

/** 503 `ServiceUnavailable` for an error that reports a bounded wait; null for any other error. */
export function unavailableFor(error: unknown): ServiceUnavailable | null {
  const wait = databaseWaitOf(error);
  if (!wait) return null;
  return new ServiceUnavailable(`The service is busy: ${WHAT_TOOK_TOO_LONG[wait]}. Try again shortly.`, {
    wait,
  });
}
