import type pg from 'pg';

/** What this reads of a `pg` client beyond its public API: its wire connection, which reports server messages. */
type WatchedClient = pg.PoolClient & {
  connection?: { on(event: 'errorMessage', listener: (message: { severity?: string }) => void): void };
};

/** What `pg` answers for a statement that returned nothing. */
const NO_ROWS = { command: 'ROLLBACK', rowCount: null, oid: 0, fields: [], rows: [] };

/**
 * Gives a pool back every connection whose server session ended, and never lends it again
 * (docs/reliability.md#ended-sessions).
 *
 * PostgreSQL ends a session with a FATAL message: `idle_in_transaction_session_timeout` (which the pools set),
 * `pg_terminate_backend`, a restart, a failover. Two things went wrong when that happened inside a transaction:
 * - The caller rolls back, and the `rollback` statement fails on the dead connection. Kysely gives a transaction's
 *   connection back only after its rollback succeeds, so the connection was never returned: the pool lost a slot
 *   for good, and after as many such ends as the pool has slots every request waited out the acquire timeout.
 * - A statement that was running rejects at once, but `pg` marks the client unusable only when the socket closes,
 *   a moment later. A connection given back in between was kept, and the next request on it failed with
 *   "Connection terminated unexpectedly".
 *
 * So once the server has ended the session, the client is ended too (which makes `pg-pool` discard it when it is
 * given back), and a `rollback` on it succeeds without a round trip: the server rolled the transaction back when
 * it ended the session, so the answer is true, and the caller goes on to give the connection back.
 */
export function forgetEndedSessions(pool: pg.Pool): void {
  pool.on('connect', (client: WatchedClient) => {
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      void client.end().catch(() => undefined);
    };
    client.connection?.on('errorMessage', message => {
      if (message.severity === 'FATAL') end();
    });
    client.on('end', end);
    client.on('error', end);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) =>
      ended && isRollback(args[0]) ? Promise.resolve(NO_ROWS) : query(...args);
  });
}

function isRollback(statement: unknown): boolean {
  const text = typeof statement === 'string' ? statement : (statement as { text?: unknown } | null)?.text;
  return typeof text === 'string' && text.trim().toLowerCase() === 'rollback';
}
