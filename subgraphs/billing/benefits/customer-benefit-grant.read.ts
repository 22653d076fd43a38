import { entityJson } from '../../../kit/database/read/entity-json.js';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import type { Customer } from '../customers/customer.entity.js';
import { customerJson } from '../customers/customer.read.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import type { Benefit } from './benefit.entity.js';
import { BenefitGrant } from './benefit-grant.entity.js';
import { benefitJson } from './benefit.read.js';
import { CustomerBenefitGrantType } from './customer-benefit-grant.type.js';

export interface CustomerBenefitGrantReadFilters {
  query?: string;
  types?: string[];
  benefitIds?: string[];
  checkoutIds?: string[];
  orderIds?: string[];
  subscriptionIds?: string[];
  /** Polar's team members; grants here have none, so any member filter matches nothing. */
  memberIds?: string[];
}

/** The grant's position in its product's benefit list (Polar's `product_benefit` sort key). */
const PRODUCT_POSITION_JOIN = `left join billing.subscriptions ps on ps.id = g.subscription_id
  left join billing.orders po on po.id = g.order_id
  left join billing.product_benefits ppb on ppb.product_id = coalesce(ps.product_id, po.product_id) and ppb.benefit_id = g.benefit_id`;

/**
 * The session customer's grants (`/v1/customer-portal/benefit-grants/`): the read path narrows a
 * customer session to its own rows; as Polar, revoked grants and benefits that are not `public` are
 * not shown.
 */
export const customerBenefitGrantRead = new ReadModel<CustomerBenefitGrantReadFilters>({
  name: 'customer_benefit_grants',
  from: 'billing.benefit_grants g',
  alias: 'g',
  readers: PORTAL_READERS,
  tenant: { organization: 'g.organization_id', customer: 'g.customer_id' },
  visible: `g.revoked_at is null and exists (select 1 from billing.benefits vb where vb.id = g.benefit_id and vb.visibility = 'public')`,
  select: {
    r: em => entityJson(BenefitGrant, 'g')(em),
    customer: em =>
      `(select ${customerJson('gc')(em)} from billing.customers gc where gc.id = g.customer_id and gc.organization_id = g.organization_id)`,
    benefit: em =>
      `(select ${benefitJson('gb')(em)} from billing.benefits gb where gb.id = g.benefit_id and gb.organization_id = g.organization_id)`,
  },
  filters: {
    query: {
      where: 'exists (select 1 from billing.benefits qb where qb.id = g.benefit_id and qb.description ilike ?)',
      values: text => [containsPattern(text)],
    },
    types: {
      where: 'exists (select 1 from billing.benefits tb where tb.id = g.benefit_id and tb.type = any(?::text[]))',
    },
    benefitIds: { where: 'g.benefit_id = any(?::uuid[])' },
    checkoutIds: {
      where: `(exists (select 1 from billing.subscriptions cs where cs.id = g.subscription_id and cs.checkout_id = any(?::uuid[]))
        or exists (select 1 from billing.orders co where co.id = g.order_id and co.checkout_id = any(?::uuid[])))`,
      values: ids => [ids, ids],
    },
    orderIds: { where: 'g.order_id = any(?::uuid[])' },
    subscriptionIds: { where: 'g.subscription_id = any(?::uuid[])' },
    memberIds: { where: 'false', values: () => [] },
  },
  sorts: {
    granted_at: { sql: 'g.granted_at' },
    type: { sql: 'sb.type', join: 'join billing.benefits sb on sb.id = g.benefit_id' },
    // One customer session sees one organization: its id orders as its slug would.
    organization: { sql: 'g.organization_id' },
    product_benefit: { sql: 'ppb.position', join: PRODUCT_POSITION_JOIN },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});

export function customerBenefitGrantFromRow(row: ReadRow): CustomerBenefitGrantType {
  return CustomerBenefitGrantType.fromEntity(row.r as BenefitGrant, row.customer as Customer, row.benefit as Benefit);
}
