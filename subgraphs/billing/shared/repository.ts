import type { EntityManager, EntityName, FilterQuery, FindOptions } from '@mikro-orm/postgresql';
import { totalFromPage } from '../../../kit/graphql/pagination.js';

/** `%text%` for `$ilike`, with the pattern characters of `text` escaped (a search for `50%` finds "50%"). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, c => `\\${c}`)}%`;

/**
 * One page of a list and its exact total. The `count(*)` runs only when the page cannot tell the
 * total itself (`totalFromPage`): most lists fit in their first page.
 */
export async function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  where: FilterQuery<T>,
  orderBy: FindOptions<T>['orderBy'],
  window: { limit: number; offset: number },
): Promise<[T[], number]> {
  const items = (await em.find(
    entity,
    where as never,
    { orderBy, limit: window.limit, offset: window.offset } as FindOptions<T>,
  )) as T[];
  const total = totalFromPage(items.length, window) ?? (await em.count(entity, where as never));
  return [items, total];
}
