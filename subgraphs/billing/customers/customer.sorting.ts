import { sortCriteria } from '../shared/sorting.js';

/** Sort keys Polar accepts for customers (polar-api.md §2), mapped to entity properties. */
const SORT_PROPERTIES: Record<string, string> = { created_at: 'createdAt', email: 'email', name: 'name' };

export const CUSTOMER_SORT_KEYS = Object.keys(SORT_PROPERTIES);
export const CUSTOMER_DEFAULT_SORTING = ['-created_at'];

/** `["-name", "created_at"]` → `{ name: 'desc', createdAt: 'asc', id: 'asc' }` (id keeps pages stable). */
export function customerOrderBy(sorting: readonly string[]): Record<string, 'asc' | 'desc'> {
  const order: Record<string, 'asc' | 'desc'> = {};
  for (const { key, direction } of sortCriteria(sorting, CUSTOMER_SORT_KEYS, CUSTOMER_DEFAULT_SORTING))
    order[SORT_PROPERTIES[key]] = direction;
  order.id ??= 'asc';
  return order;
}
