import type { EntityManager } from '@mikro-orm/postgresql';
import { runRead } from '../../../kit/database/read/execute.js';
import { numbered } from '../../../kit/database/read/read-model.js';

/**
 * A hand-written statement with `?` placeholders, run as the read path runs its own: a named prepared statement,
 * arrays bound as PostgreSQL arrays (`= any(?::uuid[])`), in the entity manager's transaction when it has one.
 * (`em.execute` expands an array into one parameter per element, which `any(?)` and `#> ?::text[]` cannot take.)
 */
export async function sql<T>(em: EntityManager, text: string, values: readonly unknown[]): Promise<T[]> {
  return (await runRead(em, numbered(text), values)) as T[];
}
