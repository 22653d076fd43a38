import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';
import { statementNameOn } from '../direct-urls.js';
import { connectionTypeOf, onConnectionOf, readUrlOf } from '../read-replicas.js';

/** A row of a read statement: column name → value as `pg` parses it (json columns already parsed). */
export type ReadRow = Record<string, unknown>;

interface NativeClient {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: ReadRow[] }>;
}

interface NativePool extends NativeClient {
  connect(): Promise<NativeClient & { release(error?: Error): void }>;
}

const names = new Map<string, string>();

/**
 * A stable prepared-statement name per SQL text (`pg` prepares it once per connection), or none through a
 * pooler in transaction mode (kit/database/direct-urls.ts).
 */
function statementName(em: EntityManager, sql: string): string | undefined {
  let name = names.get(sql);
  if (!name) {
    name = `read_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (names.size < 5000) names.set(sql, name);
  }
  const primaryUrl = em.config.get('clientUrl') as string;
  const url = connectionTypeOf(em) === 'read' ? (readUrlOf(primaryUrl) ?? primaryUrl) : primaryUrl;
  return statementNameOn(url, name);
}

/** Runs one read statement of a `withReads` session (see there). */
export type Read = (sql: string, params: readonly unknown[]) => Promise<ReadRow[]>;

/**
 * Runs one read statement with `$n` parameters bound by PostgreSQL (never spliced into the text).
 *
 * MikroORM's `execute` formats the values into the SQL text and goes through its query builder's
 * machinery; a read here is a statement whose text was built once per shape, so it goes to the `pg`
 * pool as a named prepared statement (parsed once per connection), or, inside a unit of work's
 * transaction, to that transaction's connection. It still passes through the ORM connection's
 * `executeQuery`, so it is logged like every other statement (and tests can count it there).
 */
export async function runRead(em: EntityManager, sql: string, params: readonly unknown[]): Promise<ReadRow[]> {
  const { connection, transaction } = sessionOf(em);
  if (transaction) return inTransaction(connection, transaction, sql, params);
  return onConnectionOf(em, async () => {
    const pool = await connection.getNativeClient();
    return logged(connection, sql, params, () =>
      pool.query({ name: statementName(em, sql), text: sql, values: [...params] }),
    );
  });
}

/**
 * Runs `work` in a short transaction of its own (for a `set local` its statements need), on the
 * EntityManager's connection: the replica's for an `onReadReplica` context (kit/database/read-replicas.ts),
 * which a unit of work's `transactional` would not use. Inside a running transaction, in that one.
 */
export async function inReadTransaction<T>(em: EntityManager, work: (read: Read) => Promise<T>): Promise<T> {
  const { connection, transaction } = sessionOf(em);
  if (transaction) return work((sql, params) => inTransaction(connection, transaction, sql, params));
  return onConnectionOf(em, () =>
    connection.transactional(trx => work((sql, params) => inTransaction(connection, trx, sql, params))),
  );
}

/**
 * Runs `work`, whose statements (`read`) go to ONE connection taken from the pool once, or to the unit of
 * work's transaction.
 *
 * NOTE: a page whose count follows it (a full page) took a connection for each. Under more requests than
 * the pool has connections, the count then queued behind every request that had arrived meanwhile,
 * holding its page's rows (a page of 100 orders is about 1.5 MB of objects) all that time: at 300
 * connections those waiting pages filled the 224 MB heap `npm start` sets, and every list waited for
 * the pool twice (docs/performance.md).
 */
export async function withReads<T>(em: EntityManager, work: (read: Read) => Promise<T>): Promise<T> {
  const { connection, transaction } = sessionOf(em);
  if (transaction) return work((sql, params) => inTransaction(connection, transaction, sql, params));
  return onConnectionOf(em, () => withPooledClient(em, connection, work));
}

async function withPooledClient<T>(
  em: EntityManager,
  connection: OrmConnection,
  work: (read: Read) => Promise<T>,
): Promise<T> {
  const pool = await connection.getNativeClient();
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    return await work((sql, params) =>
      logged(connection, sql, params, () =>
        client.query({ name: statementName(em, sql), text: sql, values: [...params] }).catch((error: Error) => {
          failure = error;
          throw error;
        }),
      ),
    );
  } finally {
    // As `pool.query` does: a connection whose statement failed is not handed out again.
    client.release(failure);
  }
}

interface OrmConnection {
  executeQuery<T>(query: string, cb: () => Promise<T>, context?: object): Promise<T>;
  getNativeClient(): Promise<NativePool>;
  transactional<T>(cb: (trx: Transaction) => Promise<T>): Promise<T>;
}

type Transaction = { executeQuery(q: CompiledQuery): Promise<{ rows: ReadRow[] }> };

/** The connection `em`'s reads use: its transaction's (the primary), else the replica's when `em` reads there. */
function sessionOf(em: EntityManager): { connection: OrmConnection; transaction: Transaction | undefined } {
  return {
    connection: em.getConnection(connectionTypeOf(em)) as unknown as OrmConnection,
    transaction: em.getTransactionContext<Transaction>(),
  };
}

function inTransaction(
  connection: OrmConnection,
  transaction: Transaction,
  sql: string,
  params: readonly unknown[],
): Promise<ReadRow[]> {
  return logged(connection, sql, params, () => transaction.executeQuery(CompiledQuery.raw(sql, [...params])));
}

/** Through the ORM connection's `executeQuery`, so the statement is logged (and counted by tests). */
async function logged(
  connection: OrmConnection,
  sql: string,
  params: readonly unknown[],
  run: () => Promise<{ rows: ReadRow[] }>,
): Promise<ReadRow[]> {
  return connection.executeQuery(sql, async () => (await run()).rows, { query: sql, params });
}
