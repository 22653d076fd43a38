import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedCustomer } from '../customers/customer.read.js';
import { embeddedDiscount } from '../discounts/discount.read.js';
import { embeddedBilledPrices, embeddedProduct } from '../products/product.read.js';
import { ACTIVE_STATUSES } from '../shared/enums.js';
import { Subscription } from './subscription.entity.js';
import type { SubscriptionFilters } from './subscription.filters.js';
import { SUBSCRIPTION_SORT_COLUMNS } from './subscription.sorting.js';

/** The filters of the read statement (the organization filter narrows the tenant scope instead). */
export type SubscriptionReadFilters = Omit<SubscriptionFilters, 'organizationId'>;

/** Filters the per-status counters can answer a total for (the organization scope is always there). */
const COUNTER_FILTERS = new Set(['status', 'active', 'cancelAtPeriodEnd']);

/** Candidate JSON values of a metadata filter value (stored values may be strings, numbers or booleans). */
export function metadataCandidates(key: string, value: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ [key]: value }];
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) out.push({ [key]: Number(value) });
  if (value === 'true' || value === 'false') out.push({ [key]: value === 'true' });
  return out;
}

/**
 * `metadata[k]=v`: one condition per key, on the tenant-keyed GIN array index of the subscription's
 * metadata terms (`<organization id>:<key as JSON>=<value as JSON>`, migration 20261126100000): the
 * filter's own terms are built by the same SQL function from each (organization, candidate) pair, so
 * the index hands back this organization's exact matches, with no recheck and never another tenant's.
 * Several values of one key: any of them (`&&`); several keys: all of them.
 */
const metadataTerm =
  'billing.tenant_metadata_terms(s.organization_id, s.metadata) && billing.tenant_metadata_filter_terms(?::uuid[], ?::jsonb)';

const SORTS = Object.fromEntries(
  Object.entries(SUBSCRIPTION_SORT_COLUMNS).map(([key, sort]) => [
    key,
    {
      sql: sort.sql,
      join:
        'join' in sort
          ? {
              customer: 'left join billing.customers c on c.id = s.customer_id',
              product: 'left join billing.products p on p.id = s.product_id',
              discount: 'left join billing.discounts d on d.id = s.discount_id',
            }[sort.join]
          : undefined,
    },
  ]),
);

/**
 * Subscriptions as every list and get serves them: one statement per page, each row the subscription
 * with its customer, product (and its live prices), billed prices and discount joined in as JSON
 * (`BillingSubscriptionType.fromRow` shapes it). Core API readers see their organizations'; a customer
 * session sees its own (the Customer Portal).
 *
 * Ready for orders: an order's items or a subscription's orders are one more entry of `select`, a
 * `json_agg` correlated on the parent row, e.g.
 * `orders: em => \`(select coalesce(json_agg(${orderJson('o')(em)} order by o.created_at), '[]') from billing.orders o where o.subscription_id = s.id and o.organization_id = s.organization_id)\``.
 */
export const subscriptionRead = new ReadModel<SubscriptionReadFilters>({
  name: 'subscriptions',
  from: 'billing.subscriptions s',
  alias: 's',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 's.organization_id', customer: 's.customer_id' },
  select: {
    r: entityJson(Subscription, 's'),
    customer: embeddedCustomer('s'),
    product: embeddedProduct('s'),
    prices: embeddedBilledPrices('s'),
    discount: embeddedDiscount('s'),
  },
  filters: {
    productId: { where: 's.product_id = any(?::uuid[])' },
    customerId: { where: 's.customer_id = any(?::uuid[])' },
    discountId: { where: 's.discount_id = any(?::uuid[])' },
    // The customers are looked up first (one uncorrelated subquery on customers' (organization_id,
    // external_id)), then their subscriptions through (organization_id, customer_id); a correlated
    // subquery would run once per subscription of the organization.
    externalCustomerId: {
      where:
        's.customer_id = any(array(select xc.id from billing.customers xc where xc.organization_id = any(?::uuid[]) and xc.external_id = any(?::text[])))',
      values: (externalIds, scope) => [scope.organizationIds, externalIds],
    },
    active: {
      where: active => (active ? 's.status = any(?::text[])' : 's.status <> all(?::text[])'),
      values: () => [[...ACTIVE_STATUSES]],
    },
    status: { where: 's.status = any(?::text[])' },
    cancelAtPeriodEnd: { where: 's.cancel_at_period_end = ?' },
    customerCancellationReason: { where: 's.customer_cancellation_reason = any(?::text[])' },
    canceledAtAfter: { where: 's.canceled_at >= ?::timestamptz' },
    canceledAtBefore: { where: 's.canceled_at <= ?::timestamptz' },
    metadata: {
      where: metadata =>
        Object.keys(metadata)
          .map(() => `(${metadataTerm})`)
          .join(' and '),
      values: (metadata, scope) =>
        Object.entries(metadata).flatMap(([key, values]) => [
          scope.organizationIds,
          JSON.stringify(values.flatMap(v => metadataCandidates(key, v))),
        ]),
    },
  },
  sorts: {
    ...SORTS,
    // The Customer Portal orders by start with the not-yet-started last, as Polar does.
    portal_started_at: { sql: 's.started_at', nulls: 'last' },
  },
  tieBreaker: 'id',
  count: {
    // Organization, status / active and cancel_at_period_end only: summed from the counters kept by
    // triggers in the same transaction as every write (migration 20261121140000), a few rows whatever
    // the organization's size. Everything else: `count(*)` of the matches through the filter's index.
    applies: (filters, scope) => !scope.customerId && Object.keys(filters).every(key => COUNTER_FILTERS.has(key)),
    sql: (scope, filters) => {
      const where = ['s.organization_id = any(?::uuid[])'];
      const values: unknown[] = [scope.organizationIds];
      if (filters.active !== undefined) {
        where.push(filters.active ? 's.status = any(?::text[])' : 's.status <> all(?::text[])');
        values.push([...ACTIVE_STATUSES]);
      }
      if (filters.status) {
        where.push('s.status = any(?::text[])');
        values.push(filters.status);
      }
      if (filters.cancelAtPeriodEnd !== undefined) {
        where.push('s.cancel_at_period_end = ?');
        values.push(filters.cancelAtPeriodEnd);
      }
      return { from: 'billing.subscription_counts s', where: where.join(' and '), values };
    },
  },
});
