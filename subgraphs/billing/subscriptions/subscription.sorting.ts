import { PolarRequestValidationError } from '../../../kit/errors.js';

/**
 * Polar's subscription sort keys (polar-api.md §2) and the SQL each orders by. `customer`, `product`
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

export interface SubscriptionOrder {
  key: SubscriptionSortKey;
  direction: 'asc' | 'desc';
}

/**
 * `["-amount", "status"]` → criteria in order (a key given twice counts once, first wins).
 * @throws PolarRequestValidationError (422 `enum`, loc query.sorting) for an unknown key
 */
export function subscriptionOrder(sorting: readonly string[] | null | undefined): SubscriptionOrder[] {
  const order: SubscriptionOrder[] = [];
  for (const criterion of sorting?.length ? sorting : SUBSCRIPTION_DEFAULT_SORTING) {
    const descending = criterion.startsWith('-');
    const key = (descending ? criterion.slice(1) : criterion) as SubscriptionSortKey;
    if (!Object.hasOwn(SUBSCRIPTION_SORT_COLUMNS, key)) {
      throw new PolarRequestValidationError([
        { type: 'enum', loc: ['query', 'sorting'], msg: 'Invalid sorting criterion.', input: criterion },
      ]);
    }
    if (!order.some(o => o.key === key)) order.push({ key, direction: descending ? 'desc' : 'asc' });
  }
  return order;
}
