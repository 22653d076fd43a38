import type { EntityManager } from '@mikro-orm/postgresql';
import { totalFromPage } from '../../graphql/pagination.js';
import { type ReadRow, withReads } from './execute.js';

/** A page of rows ready to serve and its exact total. */
export interface PageResult {
  rows: ReadRow[];
  total: number;
}

/** The parts of a page statement that the keyed statements reuse. */
interface PageParts {
  where: string;
  orderBy: string;
  joins: string;
}

/** `?` → `$1, $2, …` in order (the texts here never contain a `?` operator). */
export function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

/** `ReadModel.pagesPerKey`'s statements for one page shape and key column. */
export interface KeyedShape {
  sql: string;
  countSql: string;
}

/**
 * The pages of many keys in one statement: a lateral page per key (the model's conditions, index order,
 * limit and offset within that key, so a deep page reads its window, not every row before it), each row
 * tagged with its key; and the exact totals of the keys whose page cannot tell them, grouped by key.
 */
export function keyedStatements(
  model: { alias: string; from: string },
  selectList: string,
  page: PageParts,
  column: string,
): KeyedShape {
  const own = `${model.alias}.${column}`;
  const inner = `select ${model.alias}.* from ${model.from} ${page.joins} where ${page.where} and ${own} = k.key order by ${page.orderBy} limit ? offset ?`;
  return {
    sql: numbered(
      `select k.key::text as "__key", ${selectList} from unnest(?::uuid[]) as k(key) cross join lateral (${inner}) ${model.alias}`,
    ),
    countSql: numbered(
      `select ${own}::text as "__key", count(*) as n from ${model.from} where ${page.where} and ${own} = any(?::uuid[]) group by ${own}`,
    ),
  };
}

/** Runs `shape` for `keys` on one connection: each key's rows, in the page's order, and its total. */
export async function readKeyedPages(
  em: EntityManager,
  shape: KeyedShape,
  keys: readonly string[],
  values: readonly unknown[],
  window: { limit: number; offset: number },
): Promise<Map<string, PageResult>> {
  const pages = new Map<string, PageResult>(keys.map(key => [key, { rows: [], total: 0 }]));
  const unique = [...pages.keys()];
  return withReads(em, async read => {
    // A nested loop over the keys: each key's rows come out in its lateral page's order.
    for (const row of await read(shape.sql, [unique, ...values, window.limit, window.offset])) {
      const { __key, ...rest } = row as ReadRow & { __key: string };
      pages.get(__key)?.rows.push(rest);
    }
    const uncounted: string[] = [];
    for (const [key, result] of pages) {
      const total = totalFromPage(result.rows.length, window);
      if (total === undefined) uncounted.push(key);
      else result.total = total;
    }
    if (uncounted.length > 0)
      for (const row of await read(shape.countSql, [...values, uncounted]))
        (pages.get(row.__key as string) as PageResult).total = Number(row.n);
    return pages;
  });
}
