import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedProductBenefits } from '../benefits/benefit.read.js';
import { attachedCustomFieldsJson } from '../custom-fields/product-custom-fields.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import { ProductPrice } from './product-price.entity.js';
import { Product } from './product.entity.js';

/** A price row as JSON, with its product's recurring interval (the price's hidden `type` needs it). */
export const priceJson = (alias: string, productAlias: string): LazySql =>
  entityJson(ProductPrice, alias, [
    `'productRecurringInterval', ${productAlias}.recurring_interval`,
    // numeric as text (the later key wins): a JSON number would go through a float.
    `'unitAmount', ${alias}.unit_amount::text`,
    `'meter', (select json_build_object('id', pm.id, 'name', pm.name, 'unit', pm.unit, 'customLabel', pm.custom_label, 'customMultiplier', pm.custom_multiplier) from billing.meters pm where pm.id = ${alias}.meter_id and pm.organization_id = ${productAlias}.organization_id)`,
  ]);

/**
 * Whether the product `alias` is referenced by an order, a subscription (trials included: a trial is a
 * subscription here) or a live discount's product restriction: such a product cannot be deleted
 * (docs/sdk-compatibility.md#product-is_deletable). Each test is one index probe: orders
 * `(organization_id, product_id)`, subscriptions `(product_id)`, live discounts' `product_ids` (GIN).
 */
export const productReferenced = (alias: string): string =>
  `(exists (select 1 from billing.orders ro where ro.organization_id = ${alias}.organization_id and ro.product_id = ${alias}.id)` +
  ` or exists (select 1 from billing.subscriptions rs where rs.product_id = ${alias}.id)` +
  ` or exists (select 1 from billing.discounts rd where rd.product_ids @> array[${alias}.id::text] and rd.deleted_at is null and rd.organization_id = ${alias}.organization_id))`;

/**
 * How a product row says `isDeletable`: `probe`, computed (the product lists and gets); `referenced`,
 * false without a probe (the product of an order or a subscription: that row references it); `unset`,
 * left to `ProductDeletableResolver`, which reads it only if a query selects it.
 */
export type DeletableFrom = 'probe' | 'referenced' | 'unset';

/**
 * A product row as JSON with its live prices (oldest first) under `prices`, its live benefits under
 * `benefits`, its custom fields and `isDeletable` (see `DeletableFrom`): `productFromRow` reads it.
 */
export const productJson =
  (alias: string, deletable: DeletableFrom = 'unset'): LazySql =>
  em =>
    entityJson(Product, alias, [
      `'prices', (select coalesce(json_agg(${priceJson('pp', alias)(em)} order by pp.created_at, pp.id), '[]'::json) from billing.product_prices pp where pp.product_id = ${alias}.id and pp.is_archived = false)`,
      `'benefits', ${embeddedProductBenefits(alias)(em)}`,
      ...(deletable === 'unset'
        ? []
        : [`'isDeletable', ${deletable === 'probe' ? `not ${productReferenced(alias)}` : 'false'}`]),
      `'attachedCustomFields', ${attachedCustomFieldsJson(alias)(em)}`,
    ])(em);

/** The product of the row `parent` (an order, a subscription: it references the product), within its organization. */
export const embeddedProduct =
  (parent: string): LazySql =>
  em =>
    `(select ${productJson('p', 'referenced')(em)} from billing.products p where p.id = ${parent}.product_id and p.organization_id = ${parent}.organization_id)`;

/**
 * The prices `parent` bills, in the order of its `price_ids` (archived ones included: a subscription
 * keeps billing the price it started on), each with its own product's interval.
 */
export const embeddedBilledPrices =
  (parent: string): LazySql =>
  em =>
    `(select coalesce(json_agg(${priceJson('bp', 'bpp')(em)} order by array_position(${parent}.price_ids, bp.id::text)), '[]'::json) from billing.product_prices bp join billing.products bpp on bpp.id = bp.product_id and bpp.organization_id = ${parent}.organization_id where bp.id = any(${parent}.price_ids::uuid[]))`;

export interface ProductReadFilters {
  ids?: string[];
  query?: string;
  isArchived?: boolean;
  isRecurring?: boolean;
  visibility?: string[];
}

/** The lowest live price's kind / amount, for the price sort keys (docs/polar/lists.md). */
const PRICE_AMOUNT_TYPE = `(select min(case pp.amount_type when 'free' then 0 when 'fixed' then 1 when 'custom' then 2 when 'seat_based' then 3 else 4 end) from billing.product_prices pp where pp.product_id = p.id and pp.is_archived = false)`;
const PRICE_AMOUNT = `(select min(coalesce(pp.price_amount, pp.minimum_amount, (pp.seat_tiers->'tiers'->0->>'price_per_seat')::bigint, 0)) from billing.product_prices pp where pp.product_id = p.id and pp.is_archived = false)`;

/** Products as lists and gets serve them: each row the product with its live prices (`productFromRow`). */
export const productRead = new ReadModel<ProductReadFilters>({
  name: 'products',
  from: 'billing.products p',
  alias: 'p',
  readers: CORE_READERS,
  tenant: { organization: 'p.organization_id' },
  select: { product: productJson('p', 'probe') },
  // A deleted product is gone from lists and gets; rows that named it still embed it (docs/products.md#deleting-a-product).
  visible: 'p.deleted_at is null',
  filters: {
    ids: { where: 'p.id = any(?::uuid[])' },
    query: { where: 'p.name ilike ?', values: text => [containsPattern(text)] },
    isArchived: { where: 'p.is_archived = ?' },
    isRecurring: {
      where: recurring => (recurring ? 'p.recurring_interval is not null' : 'p.recurring_interval is null'),
      values: () => [],
    },
    visibility: { where: 'p.visibility = any(?::text[])' },
  },
  sorts: {
    created_at: { sql: 'p.created_at' },
    name: { sql: 'p.name' },
    price_amount_type: { sql: PRICE_AMOUNT_TYPE },
    price_amount: { sql: PRICE_AMOUNT },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
