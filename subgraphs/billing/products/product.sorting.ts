import { raw } from '@mikro-orm/postgresql';
import { sortCriteria } from '../shared/sorting.js';

/**
 * Sort keys Polar accepts for products (polar-api.md §2). The price keys order by the product's
 * live prices: the "lowest" amount type (free < fixed < custom < seat_based) and the lowest amount
 * (fixed price, custom minimum, or first seat tier).
 */
const PRICE_AMOUNT_TYPE = `(select min(case pp.amount_type when 'free' then 0 when 'fixed' then 1 when 'custom' then 2 when 'seat_based' then 3 else 4 end) from "billing"."product_prices" pp where pp.product_id = ALIAS.id and pp.is_archived = false)`;
const PRICE_AMOUNT = `(select min(coalesce(pp.price_amount, pp.minimum_amount, (pp.seat_tiers->'tiers'->0->>'price_per_seat')::bigint, 0)) from "billing"."product_prices" pp where pp.product_id = ALIAS.id and pp.is_archived = false)`;

export const PRODUCT_SORT_KEYS = ['created_at', 'name', 'price_amount_type', 'price_amount'];
export const PRODUCT_DEFAULT_SORTING = ['-created_at'];

export type ProductOrder = Array<Record<string, 'asc' | 'desc'>>;

/** `["-created_at"]` → MikroORM order entries; `id` last keeps pages stable. */
export function productOrderBy(sorting: readonly string[]): ProductOrder {
  const order = sortCriteria(sorting, PRODUCT_SORT_KEYS, PRODUCT_DEFAULT_SORTING).map(
    ({ key, direction }): Record<string, 'asc' | 'desc'> => {
      if (key === 'created_at') return { createdAt: direction };
      if (key === 'name') return { name: direction };
      const sql = key === 'price_amount' ? PRICE_AMOUNT : PRICE_AMOUNT_TYPE;
      return { [raw(alias => sql.replace('ALIAS', alias))]: direction };
    },
  );
  order.push({ id: 'asc' });
  return order;
}
