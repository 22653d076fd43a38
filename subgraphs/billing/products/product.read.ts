import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import { ProductPrice } from './product-price.entity.js';
import { Product } from './product.entity.js';

/** A price row as JSON, with its product's recurring interval (the price's hidden `type` needs it). */
export const priceJson = (alias: string, productAlias: string): LazySql =>
  entityJson(ProductPrice, alias, [`'productRecurringInterval', ${productAlias}.recurring_interval`]);

/** A product row as JSON with its live prices (oldest first) under `prices`: `productFromRow` reads it. */
export const productJson =
  (alias: string): LazySql =>
  em =>
    entityJson(Product, alias, [
      `'prices', (select coalesce(json_agg(${priceJson('pp', alias)(em)} order by pp.created_at, pp.id), '[]'::json) from billing.product_prices pp where pp.product_id = ${alias}.id and pp.is_archived = false)`,
    ])(em);

/** The product of the row `parent`, within its organization. */
export const embeddedProduct =
  (parent: string): LazySql =>
  em =>
    `(select ${productJson('p')(em)} from billing.products p where p.id = ${parent}.product_id and p.organization_id = ${parent}.organization_id)`;

/**
 * The prices `parent` bills, in the order of its `price_ids` (archived ones included: a subscription
 * keeps billing the price it started on), each with its own product's interval.
 */
export const embeddedBilledPrices =
  (parent: string): LazySql =>
  em =>
    `(select coalesce(json_agg(${priceJson('bp', 'bpp')(em)} order by array_position(${parent}.price_ids, bp.id::text)), '[]'::json) from billing.product_prices bp join billing.products bpp on bpp.id = bp.product_id and bpp.organization_id = ${parent}.organization_id where bp.id = any(${parent}.price_ids::uuid[]))`;
