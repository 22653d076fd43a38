import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CompiledQuery } from 'kysely';

/** A row of a read statement: column name → value as `pg` parses it (json columns already parsed). */
export type ReadRow = Record<string, unknown>;

interface NativePool {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: ReadRow[] }>;
}

const names = new Map<string, string>();

/** A stable prepared-statement name per SQL text (`pg` prepares it once per connection). */
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `read_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    if (names.size < 5000) names.set(sql, name);
  }
  return name;
}

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
  const connection = em.getConnection() as unknown as {
    executeQuery<T>(query: string, cb: () => Promise<T>, context?: object): Promise<T>;
    getNativeClient(): Promise<NativePool>;
  };
  const transaction = em.getTransactionContext<{
    executeQuery(q: CompiledQuery): Promise<{ rows: ReadRow[] }>;
  }>();
  return connection.executeQuery(
    sql,
    async () => {
      if (transaction) return (await transaction.executeQuery(CompiledQuery.raw(sql, [...params]))).rows;
      const pool = await connection.getNativeClient();
      return (await pool.query({ name: statementName(sql), text: sql, values: params as unknown[] })).rows;
    },
    { query: sql, params },
  );
}
