import { sortCriteria, type SortCriterion } from '../shared/sorting.js';

/**
 * Polar's subscription sort keys (docs/polar/lists.md) and the SQL each orders by. `customer`, `product`
 * and `discount` order by the related row's e-mail / name, as Polar does; the repository joins those
 * tables only when one of these keys is used.
 */
export const SUBSCRIPTION_SORT_COLUMNS = {
  customer: { sql: 'c.email', join: 'customer' },
  status: { sql: 's.status' },
  started_at: { sql: 's.started_at' },
  current_period_end: { sql: 's.current_period_end' },
  ended_at: { sql: 's.ended_at' },
  ends_at: { sql: 's.ends_at' },
  amount: { sql: 's.amount' },
  product: { sql: 'p.name', join: 'product' },
  discount: { sql: 'd.name', join: 'discount' },
} as const satisfies Record<string, { sql: string; join?: 'customer' | 'product' | 'discount' }>;

export type SubscriptionSortKey = keyof typeof SUBSCRIPTION_SORT_COLUMNS;
export const SUBSCRIPTION_SORT_KEYS = Object.keys(SUBSCRIPTION_SORT_COLUMNS) as SubscriptionSortKey[];
export const SUBSCRIPTION_DEFAULT_SORTING = ['-started_at'];

export type SubscriptionOrder = SortCriterion<SubscriptionSortKey>;

/**
 * `["-amount", "status"]` → criteria in order (a key given twice counts once, first wins).
 * @throws PolarRequestValidationError (422 `enum`, loc query.sorting) for an unknown key
 */
export function subscriptionOrder(sorting: readonly string[] | null | undefined): SubscriptionOrder[] {
  return sortCriteria(sorting ?? [], SUBSCRIPTION_SORT_KEYS, SUBSCRIPTION_DEFAULT_SORTING);
}
