import { PolarRequestValidationError } from '../../../kit/errors.js';

/** Sort keys Polar accepts for customers (polar-api.md §2), mapped to entity properties. */
const SORT_PROPERTIES: Record<string, string> = { created_at: 'createdAt', email: 'email', name: 'name' };

export const CUSTOMER_SORT_KEYS = Object.keys(SORT_PROPERTIES);
export const CUSTOMER_DEFAULT_SORTING = ['-created_at'];

/** `["-name", "created_at"]` → `{ name: 'desc', createdAt: 'asc', id: 'asc' }` (id keeps pages stable). */
export function customerOrderBy(sorting: readonly string[]): Record<string, 'asc' | 'desc'> {
  const order: Record<string, 'asc' | 'desc'> = {};
  for (const criterion of sorting.length ? sorting : CUSTOMER_DEFAULT_SORTING) {
    const descending = criterion.startsWith('-');
    const property = SORT_PROPERTIES[descending ? criterion.slice(1) : criterion];
    if (!property) {
      throw new PolarRequestValidationError([{ type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: criterion }]);
    }
    order[property] ??= descending ? 'desc' : 'asc';
  }
  order.id ??= 'asc';
  return order;
}
