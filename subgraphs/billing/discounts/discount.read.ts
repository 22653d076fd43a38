import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import { Discount } from './discount.entity.js';

export const discountJson = (alias: string): LazySql => entityJson(Discount, alias);

/** The discount of the row `parent` (deleted ones included), within its organization; null when none. */
export const embeddedDiscount =
  (parent: string): LazySql =>
  em =>
    `(select ${discountJson('d')(em)} from billing.discounts d where d.id = ${parent}.discount_id and d.organization_id = ${parent}.organization_id)`;
