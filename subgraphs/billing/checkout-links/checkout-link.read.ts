import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { discountJson } from '../discounts/discount.read.js';
import { productJson } from '../products/product.read.js';
import { CheckoutLink } from './checkout-link.entity.js';

export interface CheckoutLinkReadFilters {
  productId?: string[];
}

/**
 * Live checkout links as lists and gets serve them: one statement per page, each row the link with
 * its products (in the link's order, with their live prices) and its discount while that discount
 * is live (a deleted discount no longer shows, as Polar's `ondelete=set null`).
 */
export const checkoutLinkRead = new ReadModel<CheckoutLinkReadFilters>({
  name: 'checkout_links',
  from: 'billing.checkout_links l',
  alias: 'l',
  readers: CORE_READERS,
  tenant: { organization: 'l.organization_id' },
  visible: 'l.deleted_at is null',
  select: {
    r: entityJson(CheckoutLink, 'l'),
    products: em =>
      `(select coalesce(json_agg(${productJson('p')(em)} order by array_position(l.product_ids, p.id)), '[]'::json) from billing.products p where p.id = any(l.product_ids) and p.organization_id = l.organization_id and p.deleted_at is null)`,
    discount: em =>
      `(select ${discountJson('d')(em)} from billing.discounts d where d.id = l.discount_id and d.organization_id = l.organization_id and d.deleted_at is null)`,
  },
  filters: {
    productId: { where: 'l.product_ids && ?::uuid[]' },
  },
  sorts: {
    created_at: { sql: 'l.created_at' },
    label: { sql: 'l.label' },
    success_url: { sql: 'l.success_url' },
    allow_discount_codes: { sql: 'l.allow_discount_codes' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
