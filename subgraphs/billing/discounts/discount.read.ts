import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { productJson } from '../products/product.read.js';
import { productFromRow, type ProductRow } from '../products/product.type.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import { Discount } from './discount.entity.js';
import { DiscountType } from './discount.type.js';

export const discountJson = (alias: string): LazySql => entityJson(Discount, alias);

/** The discount of the row `parent` (deleted ones included), within its organization; null when none. */
export const embeddedDiscount =
  (parent: string): LazySql =>
  em =>
    `(select ${discountJson('d')(em)} from billing.discounts d where d.id = ${parent}.discount_id and d.organization_id = ${parent}.organization_id)`;

export interface DiscountReadFilters {
  query?: string;
}

/**
 * Live discounts as lists and gets serve them: each row the discount with the products it is
 * restricted to (in its `product_ids` order, each with its live prices), within its organization.
 */
export const discountRead = new ReadModel<DiscountReadFilters>({
  name: 'discounts',
  from: 'billing.discounts d',
  alias: 'd',
  readers: CORE_READERS,
  tenant: { organization: 'd.organization_id' },
  visible: 'd.deleted_at is null',
  select: {
    r: discountJson('d'),
    products: em =>
      `(select coalesce(json_agg(${productJson('rp')(em)} order by array_position(d.product_ids, rp.id::text)), '[]'::json) from billing.products rp where rp.id = any(d.product_ids::uuid[]) and rp.organization_id = d.organization_id)`,
  },
  filters: {
    query: {
      where: '(d.name ilike ? or d.code ilike ?)',
      values: text => [containsPattern(text), containsPattern(text)],
    },
  },
  sorts: {
    created_at: { sql: 'd.created_at' },
    name: { sql: 'd.name' },
    code: { sql: 'd.code' },
    redemptions_count: { sql: 'd.redemptions_count' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});

/** A row of `discountRead` as the public type. */
export function discountFromRow(row: ReadRow): DiscountType {
  return DiscountType.fromEntity(row.r as Discount, (row.products as ProductRow[]).map(productFromRow));
}
