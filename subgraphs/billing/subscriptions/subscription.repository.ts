import type { EntityManager } from '@mikro-orm/postgresql';
import { totalFromPage } from '../../../kit/graphql/pagination.js';
import type { Principal } from '../../../kit/principal.js';
import { ACTIVE_STATUSES } from '../shared/enums.js';
import { Subscription } from './subscription.entity.js';
import type { SubscriptionFilters } from './subscription.filters.js';
import { SUBSCRIPTION_SORT_COLUMNS, type SubscriptionOrder } from './subscription.sorting.js';

/** One row of the CSV export: the subscription and the names its columns show. */
export interface SubscriptionExportRow {
  subscription: Subscription;
  customerEmail: string | null;
  customerExternalId: string | null;
  productName: string | null;
}

/**
 * The organizations whose subscriptions the principal may read: an organization token's own, a user's
 * memberships (∩ an OAuth down-scope, already applied by identity). Customers and anonymous callers
 * read nothing through the Core API. Billing never looks at identity's tables for this.
 */
export function readableOrganizationIds(principal: Principal): string[] {
  return principal.subject === 'user' || principal.subject === 'organization' ? principal.organizationIds : [];
}

/** Filters the per-status counters can answer a total for (the organization scope is always there). */
const COUNTER_FILTERS = new Set(['organizationId', 'status', 'active', 'cancelAtPeriodEnd']);

/** A parameter list for MikroORM's `?` placeholders (values are bound, never spliced by us). */
class Params {
  readonly values: unknown[] = [];
  add(value: string | number | boolean): string {
    this.values.push(value);
    return '?';
  }
  list(values: readonly string[]): string {
    return `(${values.map(v => this.add(v)).join(', ')})`;
  }
}

/** Candidate JSON values of a metadata filter value (stored values may be strings, numbers or booleans). */
function metadataCandidates(key: string, value: string): string[] {
  const out = [JSON.stringify({ [key]: value })];
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value)))
    out.push(JSON.stringify({ [key]: Number(value) }));
  if (value === 'true' || value === 'false') out.push(JSON.stringify({ [key]: value === 'true' }));
  return out;
}

/**
 * Every read of subscriptions, scoped to the principal's organizations (another tenant's id is "not
 * found"). The list is hand-written SQL rather than MikroORM's query builder: its filters and sort
 * keys reach into customers, products and discounts of the same subgraph, and like the organization
 * list (kit/database/query-shapes.ts) it is a hot read whose cost must be the query, not building it.
 * Values are bound through MikroORM's placeholders; rows are mapped to entities with `em.map`.
 */
export class SubscriptionRepository {
  constructor(private readonly em: EntityManager) {}

  /** The WHERE clause of a list over `organizationIds` (non-empty) with `filters`. */
  private where(organizationIds: readonly string[], filters: SubscriptionFilters, params: Params): string {
    const and: string[] = [
      organizationIds.length === 1
        ? `s.organization_id = ${params.add(organizationIds[0])}`
        : `s.organization_id in ${params.list(organizationIds)}`,
    ];
    if (filters.productId) and.push(`s.product_id in ${params.list(filters.productId)}`);
    if (filters.customerId) and.push(`s.customer_id in ${params.list(filters.customerId)}`);
    if (filters.discountId) and.push(`s.discount_id in ${params.list(filters.discountId)}`);
    if (filters.externalCustomerId) {
      and.push(
        `s.customer_id in (select xc.id from billing.customers xc where xc.organization_id = s.organization_id and xc.external_id in ${params.list(filters.externalCustomerId)})`,
      );
    }
    if (filters.active !== undefined)
      and.push(`s.status ${filters.active ? 'in' : 'not in'} ${params.list([...ACTIVE_STATUSES])}`);
    if (filters.status) and.push(`s.status in ${params.list(filters.status)}`);
    if (filters.cancelAtPeriodEnd !== undefined)
      and.push(`s.cancel_at_period_end = ${params.add(filters.cancelAtPeriodEnd)}`);
    if (filters.customerCancellationReason)
      and.push(`s.customer_cancellation_reason in ${params.list(filters.customerCancellationReason)}`);
    if (filters.canceledAtAfter)
      and.push(`s.canceled_at >= ${params.add(filters.canceledAtAfter.toISOString())}::timestamptz`);
    if (filters.canceledAtBefore)
      and.push(`s.canceled_at <= ${params.add(filters.canceledAtBefore.toISOString())}::timestamptz`);
    for (const [key, values] of Object.entries(filters.metadata ?? {})) {
      // Containment uses the GIN index; several values of one key: any; several keys: all.
      const any = values
        .flatMap(v => metadataCandidates(key, v))
        .map(json => `s.metadata @> ${params.add(json)}::jsonb`);
      and.push(`(${any.join(' or ')})`);
    }
    return and.join(' and ');
  }

  /**
   * One page and the exact total. The count runs only when the page cannot tell the total itself
   * (a full page, or one past the end): see `totalFromPage`.
   */
  async list(
    principal: Principal,
    filters: SubscriptionFilters,
    order: readonly SubscriptionOrder[],
    window: { limit: number; offset: number },
  ): Promise<[Subscription[], number]> {
    const organizationIds = this.scope(principal, filters.organizationId);
    if (!organizationIds.length) return [[], 0];
    const params = new Params();
    const where = this.where(organizationIds, filters, params);
    const joins = new Set(order.map(o => (SUBSCRIPTION_SORT_COLUMNS[o.key] as { join?: string }).join).filter(Boolean));
    const joinSql = [
      joins.has('customer') ? 'left join billing.customers c on c.id = s.customer_id' : '',
      joins.has('product') ? 'left join billing.products p on p.id = s.product_id' : '',
      joins.has('discount') ? 'left join billing.discounts d on d.id = s.discount_id' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const orderSql = [
      ...order.map(o => `${SUBSCRIPTION_SORT_COLUMNS[o.key].sql} ${o.direction}`),
      `s.id ${order[0]?.direction ?? 'asc'}`,
    ].join(', ');
    const pageSql = `select s.* from billing.subscriptions s ${joinSql} where ${where} order by ${orderSql} limit ${window.limit} offset ${window.offset}`;
    const rows = await this.execute(pageSql, params.values);
    const items = rows.map(row => this.em.map(Subscription, row as never));
    const total =
      totalFromPage(items.length, window) ?? (await this.count(organizationIds, filters, where, params.values));
    return [items, total];
  }

  /**
   * The exact number of matching subscriptions. Filters on the organization, status (or `active`)
   * and cancel_at_period_end only: summed from `subscription_counts` (kept by triggers in the same
   * transaction as every write, see the migration), a few rows instead of a scan of every match.
   * Any other filter: `count(*)` with the list's WHERE clause.
   */
  private async count(
    organizationIds: readonly string[],
    filters: SubscriptionFilters,
    where: string,
    values: unknown[],
  ): Promise<number> {
    const countable = Object.keys(filters).every(key => COUNTER_FILTERS.has(key));
    if (!countable) {
      return Number(
        (
          (await this.execute(`select count(*) as n from billing.subscriptions s where ${where}`, values))[0] as {
            n: string;
          }
        ).n,
      );
    }
    const params = new Params();
    const and = [`s.organization_id in ${params.list(organizationIds)}`];
    if (filters.active !== undefined)
      and.push(`s.status ${filters.active ? 'in' : 'not in'} ${params.list([...ACTIVE_STATUSES])}`);
    if (filters.status) and.push(`s.status in ${params.list(filters.status)}`);
    if (filters.cancelAtPeriodEnd !== undefined)
      and.push(`s.cancel_at_period_end = ${params.add(filters.cancelAtPeriodEnd)}`);
    const rows = await this.execute(
      `select coalesce(sum(s.n), 0) as n from billing.subscription_counts s where ${and.join(' and ')}`,
      params.values,
    );
    return Number((rows[0] as { n: string }).n);
  }

  /** The CSV export: every readable subscription of the given organizations, newest first. */
  async exportRows(
    principal: Principal,
    organizationIds: readonly string[] | undefined,
  ): Promise<SubscriptionExportRow[]> {
    const scope = this.scope(principal, organizationIds);
    if (!scope.length) return [];
    const params = new Params();
    const rows = (await this.execute(
      `select s.*, c.email as "__customer_email", c.external_id as "__customer_external_id", p.name as "__product_name"
       from billing.subscriptions s
       left join billing.customers c on c.id = s.customer_id
       left join billing.products p on p.id = s.product_id
       where ${this.where(scope, {}, params)}
       order by s.started_at desc nulls last, s.id desc`,
      params.values,
    )) as Record<string, unknown>[];
    return rows.map(row => {
      const { __customer_email, __customer_external_id, __product_name, ...columns } = row;
      return {
        subscription: this.em.map(Subscription, columns as never),
        customerEmail: (__customer_email as string | null) ?? null,
        customerExternalId: (__customer_external_id as string | null) ?? null,
        productName: (__product_name as string | null) ?? null,
      };
    });
  }

  findReadable(principal: Principal, id: string): Promise<Subscription | null> {
    const scope = readableOrganizationIds(principal);
    if (!scope.length) return Promise.resolve(null);
    return this.em.findOne(Subscription, { id, organizationId: { $in: scope } });
  }

  /** For reference resolvers: one query per batch, never another tenant's rows. */
  findReadableMany(principal: Principal, ids: readonly string[]): Promise<Subscription[]> {
    const scope = readableOrganizationIds(principal);
    if (!scope.length || !ids.length) return Promise.resolve([]);
    return this.em.find(Subscription, { id: { $in: [...ids] }, organizationId: { $in: scope } });
  }

  /** The readable organizations, narrowed to `requested` when given (an unreadable one simply drops out). */
  private scope(principal: Principal, requested: readonly string[] | undefined): string[] {
    const readable = readableOrganizationIds(principal);
    return requested ? readable.filter(id => requested.includes(id)) : readable;
  }

  private execute(sql: string, params: unknown[]): Promise<unknown[]> {
    return this.em.getConnection().execute(sql, params, 'all', this.em.getTransactionContext()) as Promise<unknown[]>;
  }
}
