import type { EntityManager, EntityName } from '@mikro-orm/postgresql';

/** SQL built from the ORM's metadata the first time a statement needs it. */
export type LazySql = (em: EntityManager) => string;

/**
 * `json_build_object('id', s."id", 'createdAt', s."created_at", …)`: a row of `entity` as JSON with
 * the entity's property names, so that one mapping function per resource (`XType.fromEntity`) serves
 * a managed entity (writes) and a read row alike. Timestamps arrive as ISO strings, `bigint` columns
 * as JSON numbers, json columns as they are stored; `fromEntity` accepts either form. Hidden
 * properties (token hashes, password hashes) are left out: a read row is served, never a secret.
 */
export function entityJson<T extends object>(entity: EntityName<T>, alias: string, extra: string[] = []): LazySql {
  return em => {
    const meta = em.getMetadata().find(entity);
    if (!meta) throw new Error(`No metadata for ${String(entity)}`);
    const pairs: string[] = [];
    for (const prop of meta.props) {
      if (prop.persist === false || prop.hidden || !prop.fieldNames?.length) continue;
      pairs.push(`'${prop.name}', ${alias}."${prop.fieldNames[0]}"`);
    }
    pairs.push(...extra);
    // json_build_object takes at most 100 arguments; larger rows are merged from chunks.
    const chunks: string[] = [];
    for (let i = 0; i < pairs.length; i += 50) chunks.push(`jsonb_build_object(${pairs.slice(i, i + 50).join(', ')})`);
    return chunks.length === 1 ? chunks[0].replace(/^jsonb_/, 'json_') : `(${chunks.join(' || ')})::json`;
  };
}
