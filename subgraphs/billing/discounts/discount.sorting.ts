import { PolarRequestValidationError } from '../../../kit/errors.js';

/** Sort keys Polar accepts for discounts (DiscountSortProperty), mapped to entity properties. */
const SORT_PROPERTIES: Record<string, string> = { created_at: 'createdAt', name: 'name', code: 'code', redemptions_count: 'redemptionsCount' };

export const DISCOUNT_SORT_KEYS = Object.keys(SORT_PROPERTIES);
export const DISCOUNT_DEFAULT_SORTING = ['-created_at'];

export function discountOrderBy(sorting: readonly string[]): Array<Record<string, 'asc' | 'desc'>> {
  const order: Array<Record<string, 'asc' | 'desc'>> = [];
  for (const criterion of sorting.length ? sorting : DISCOUNT_DEFAULT_SORTING) {
    const descending = criterion.startsWith('-');
    const property = SORT_PROPERTIES[descending ? criterion.slice(1) : criterion];
    if (!property) throw new PolarRequestValidationError([{ type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: criterion }]);
    order.push({ [property]: descending ? 'desc' : 'asc' });
  }
  order.push({ id: 'asc' });
  return order;
}
