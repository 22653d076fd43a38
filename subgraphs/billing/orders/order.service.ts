import DataLoader from 'dataloader';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import type { Address } from '../customers/customer.entity.js';
import { runWrite } from '../events/run-write.js';
import { orderUpdated, readOrderBack } from './order.events.js';
import { ordersCsv } from './order.csv.js';
import { Order } from './order.entity.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { orderRead, type OrderReadFilters } from './order.read.js';
import { orderOrder } from './order.sorting.js';
import { OrderType } from './order.type.js';

export interface OrderListQuery extends PageRequest, OrderReadFilters {
  organizationId?: string[] | null;
  sorting?: string[] | null;
}

const FILTER_KEYS: (keyof OrderReadFilters)[] = [
  'productId',
  'productBillingType',
  'discountId',
  'customerId',
  'externalCustomerId',
  'checkoutId',
  'subscriptionId',
  'status',
  'billingReason',
];

type OrderPage = { items: OrderType[]; pagination: Pagination };

/** Order reads through the read path (one statement per page, one per get). */
export class OrderService {
  /** Per request, one loader per argument set of `BillingSubscription.orders`. */
  private readonly loaders = new WeakMap<RequestContext, Map<string, DataLoader<string, OrderPage>>>();

  async list(ctx: RequestContext, query: OrderListQuery): Promise<{ items: OrderType[]; pagination: Pagination }> {
    const filters: OrderReadFilters = {};
    for (const key of FILTER_KEYS) if (query[key]?.length) filters[key] = query[key]!;
    const { rows, total } = await orderRead.page(
      ctx.em,
      ctx.principal,
      filters,
      orderOrder(query.sorting),
      pageWindow(query),
      {
        organizationIds: query.organizationId?.length ? query.organizationId : null,
      },
    );
    return { items: rows.map(OrderType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  /**
   * A page of one subscription's orders (`BillingSubscription.orders`), for every subscription of a page
   * of subscriptions in one statement, and their exact totals in one more when a page cannot tell
   * them (docs/graphql.md#nested-lists): each subscription's page is read in SQL (`pagesPerKey`), so a
   * deep page of a subscription with many orders reads its window, and the totals are counts.
   */
  ofSubscription(ctx: RequestContext, subscriptionId: string, query: OrderListQuery): Promise<OrderPage> {
    const key = JSON.stringify(query);
    let loaders = this.loaders.get(ctx);
    if (!loaders) this.loaders.set(ctx, (loaders = new Map()));
    let loader = loaders.get(key);
    if (!loader) {
      loader = new DataLoader(async ids => {
        const filters: OrderReadFilters = {};
        for (const name of FILTER_KEYS) if (query[name]?.length) filters[name] = query[name]!;
        const pages = await orderRead.pagesPerKey(
          ctx.em,
          ctx.principal,
          'subscription_id',
          ids,
          filters,
          orderOrder(query.sorting),
          pageWindow(query),
          { organizationIds: query.organizationId?.length ? query.organizationId : null },
        );
        return ids.map(id => {
          const { rows, total } = pages.get(id)!;
          return { items: rows.map(OrderType.fromRow), pagination: paginationOf(total, query.limit) };
        });
      });
      loaders.set(key, loader);
    }
    return loader.load(subscriptionId);
  }

  async get(ctx: RequestContext, id: string): Promise<OrderType> {
    const row = await orderRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return OrderType.fromRow(row);
  }

  /**
   * `PATCH /v1/orders/{id}`: the billing name and address (what an invoice will show); `order.updated`
   * in the same transaction. Absent fields are left as they are. Once the order has an address, its
   * country and state are fixed (Polar's rule: taxes and a generated invoice depend on them); the rest
   * may change, and generating the invoice again then replaces it.
   */
  async update(
    ctx: RequestContext,
    id: string,
    input: { billingName?: string | null; billingAddress?: Address | null },
  ): Promise<OrderType> {
    const now = ctx.clock.now();
    // One locking load in the read path's scope, one read back for both the response and the payload.
    return runWrite(ctx.em, async em => {
      const order = await loadForWrite(em, Order, id, tenantScope(ctx.principal, orderRead.definition.readers), {
        tenant: { customer: 'customerId' },
      });
      refuseJurisdictionChange(order.billingAddress, input.billingAddress);
      if (input.billingName !== undefined) order.billingName = input.billingName;
      if (input.billingAddress !== undefined) order.billingAddress = input.billingAddress;
      order.modifiedAt = now;
      await em.flush();
      const served = await readOrderBack(em, order);
      return { result: served.order, events: [orderUpdated(order, served.payload, now)] };
    });
  }

  /** `GET /v1/orders/export`: every readable order as CSV, newest first. */
  async export(ctx: RequestContext, organizationIds: string[] | null | undefined): Promise<string> {
    const { rows } = await orderRead.page(
      ctx.em,
      ctx.principal,
      {},
      orderOrder(null),
      { limit: 1_000_000, offset: 0 },
      {
        organizationIds: organizationIds?.length ? organizationIds : null,
      },
    );
    return ordersCsv(rows.map(OrderType.fromRow));
  }
}

/** 422 at `billing_address.country` / `.state` when an address exists and the new one moves it (as Polar). */
function refuseJurisdictionChange(current: Address | null, next: Address | null | undefined): void {
  if (!current || !next) return;
  const issues: ValidationIssue[] = [];
  if (next.country !== current.country)
    issues.push({
      type: 'value_error',
      loc: ['body', 'billing_address', 'country'],
      msg: 'Country cannot be changed',
      input: next.country,
    });
  if ((next.state ?? null) !== (current.state ?? null))
    issues.push({
      type: 'value_error',
      loc: ['body', 'billing_address', 'state'],
      msg: 'State cannot be changed',
      input: next.state ?? null,
    });
  if (issues.length) throw new PolarRequestValidationError(issues);
}
