import { sortCriteria } from '../shared/sorting.js';

/** Sort keys Polar accepts for discounts (DiscountSortProperty), mapped to entity properties. */
const SORT_PROPERTIES: Record<string, string> = {
  created_at: 'createdAt',
  name: 'name',
  code: 'code',
  redemptions_count: 'redemptionsCount',
};

export const DISCOUNT_SORT_KEYS = Object.keys(SORT_PROPERTIES);
export const DISCOUNT_DEFAULT_SORTING = ['-created_at'];

/** `["-name"]` → MikroORM order entries; `id` last keeps pages stable. */
export function discountOrderBy(sorting: readonly string[]): Array<Record<string, 'asc' | 'desc'>> {
  const order = sortCriteria(sorting, DISCOUNT_SORT_KEYS, DISCOUNT_DEFAULT_SORTING).map(({ key, direction }) => ({
    [SORT_PROPERTIES[key]]: direction,
  }));
  return [...order, { id: 'asc' }];
}
