import { snakeKeys } from '../../../kit/case.js';
import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { BillingContext } from '../context.js';
import { Customer } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import { metadataIssues } from '../customers/customer.validation.js';
import { recordEvent } from '../events/record-event.js';
import { ProductPrice } from '../products/product-price.entity.js';
import { Product } from '../products/product.entity.js';
import { ProductPriceType, ProductType } from '../products/product.type.js';
import { PriceAmountType, RecurringInterval, SubscriptionStatus } from '../shared/enums.js';
import type { CreateSubscriptionInput } from './subscription-create.inputs.js';
import { subscriptionsCsv } from './subscription.csv.js';
import { Subscription } from './subscription.entity.js';
import { BillingSubscriptionType } from './subscription.type.js';
import { normaliseFilters, type SubscriptionFilterInput, type SubscriptionFilters } from './subscription.filters.js';
import { readableOrganizationIds, SubscriptionRepository } from './subscription.repository.js';
import { subscriptionOrder } from './subscription.sorting.js';

export interface SubscriptionListQuery extends PageRequest {
  filter?: SubscriptionFilterInput | null;
  sorting?: string[] | null;
}

/**
 * The end of a period of `count` intervals from `start`, in UTC. Months and years keep the day of the
 * month, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29), as Polar's relativedelta does.
 */
export function addInterval(start: Date, interval: RecurringInterval, count: number): Date {
  const d = new Date(start.getTime());
  switch (interval) {
    case RecurringInterval.DAY:
      return new Date(d.getTime() + count * 86_400_000);
    case RecurringInterval.WEEK:
      return new Date(d.getTime() + count * 7 * 86_400_000);
    case RecurringInterval.MONTH:
    case RecurringInterval.YEAR: {
      const months = interval === RecurringInterval.YEAR ? 12 * count : count;
      const day = d.getUTCDate();
      const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
      const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
      target.setUTCDate(Math.min(day, lastDay));
      return target;
    }
  }
}

/** A price that costs nothing: the legacy `free` kind, or a fixed price of 0. */
export function isFreePrice(price: Pick<ProductPrice, 'amountType' | 'priceAmount'>): boolean {
  return price.amountType === PriceAmountType.FREE || (price.amountType === PriceAmountType.FIXED && BigInt(price.priceAmount ?? 0n) === 0n);
}

/**
 * Subscription reads and the direct creation of free subscriptions (interface §4). Updates and revoke
 * live in their own use-case files. Stateless: every call receives the request context.
 */
export class SubscriptionService {
  async list(ctx: BillingContext, query: SubscriptionListQuery, scope: SubscriptionFilters = {}): Promise<{ items: Subscription[]; pagination: Pagination }> {
    const filters = { ...normaliseFilters(query.filter), ...scope };
    const window = pageWindow(query);
    const [items, total] = await new SubscriptionRepository(ctx.em).list(ctx.principal, filters, subscriptionOrder(query.sorting), window);
    return { items, pagination: paginationOf(total, query.limit) };
  }

  /** @throws ResourceNotFound when absent or another tenant's (same answer for both). */
  async get(ctx: BillingContext, id: string): Promise<Subscription> {
    const subscription = await new SubscriptionRepository(ctx.em).findReadable(ctx.principal, id);
    if (!subscription) throw new ResourceNotFound();
    return subscription;
  }

  /** The CSV of `GET /v1/subscriptions/export`. */
  async export(ctx: BillingContext, organizationIds: string[] | null | undefined): Promise<string> {
    const filters = normaliseFilters({ organizationId: organizationIds });
    return subscriptionsCsv(await new SubscriptionRepository(ctx.em).exportRows(ctx.principal, filters.organizationId));
  }

  /**
   * Subscribes a customer to a free recurring product without a checkout: status `active`, the first
   * period starting now, no order, no e-mail; `subscription.created` is recorded in the outbox in the
   * same flush (one transaction).
   * @throws PolarRequestValidationError unknown/foreign product, not recurring, not free, unknown customer
   */
  async create(ctx: BillingContext, input: CreateSubscriptionInput): Promise<Subscription> {
    const byExternalId = input.customerId == null;
    if ((input.customerId == null) === (input.externalCustomerId == null)) {
      throw new PolarRequestValidationError([{ type: 'value_error', loc: ['body'], msg: 'Exactly one of customer_id and external_customer_id is required.', input: { customer_id: input.customerId ?? null, external_customer_id: input.externalCustomerId ?? null } }]);
    }
    if (input.metadata != null) {
      const issues = metadataIssues(input.metadata);
      if (issues.length) throw new PolarRequestValidationError(issues);
    }
    const scope = readableOrganizationIds(ctx.principal);
    const productIssue = (msg: string): ValidationIssue => ({ type: 'value_error', loc: ['body', 'product_id'], msg, input: input.productId });
    const product = scope.length ? await ctx.em.findOne(Product, { id: input.productId, organizationId: { $in: scope } }) : null;
    if (!product) throw new PolarRequestValidationError([productIssue('Product does not exist.')]);
    if (!product.recurringInterval) throw new PolarRequestValidationError([productIssue('Product is not recurring.')]);
    const prices = await ctx.em.find(ProductPrice, { productId: product.id, isArchived: false }, { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    if (!prices.length || !prices.every(isFreePrice)) {
      throw new PolarRequestValidationError([productIssue('Product is not free. The customer should go through a checkout to create a paid subscription.')]);
    }
    const customer = await ctx.em.findOne(Customer, byExternalId
      ? { organizationId: product.organizationId, externalId: input.externalCustomerId!, deletedAt: null }
      : { organizationId: product.organizationId, id: input.customerId!, deletedAt: null });
    if (!customer) {
      throw new PolarRequestValidationError([{
        type: 'value_error', loc: ['body', byExternalId ? 'external_customer_id' : 'customer_id'], msg: 'Customer does not exist.',
        input: byExternalId ? input.externalCustomerId : input.customerId,
      }]);
    }
    const now = ctx.clock.now();
    const count = product.recurringIntervalCount ?? 1;
    const subscription = ctx.em.create(Subscription, {
      organizationId: product.organizationId,
      customerId: customer.id,
      productId: product.id,
      priceIds: prices.map(p => p.id),
      amount: 0n,
      currency: prices[0].priceCurrency,
      recurringInterval: product.recurringInterval,
      recurringIntervalCount: count,
      status: SubscriptionStatus.ACTIVE,
      startedAt: now,
      currentPeriodStart: now,
      currentPeriodEnd: addInterval(now, product.recurringInterval, count),
      metadata: input.metadata ?? {},
      createdAt: now,
    } as Subscription);
    // The outbox row carries the subscription as the wire would show it (webhook `data`).
    recordEvent(ctx.em, subscription.organizationId, 'subscription.created', snakeKeys<Record<string, unknown>>({
      ...BillingSubscriptionType.fromEntity(subscription),
      priceIds: undefined,
      customer: CustomerType.fromEntity(customer),
      product: ProductType.fromEntity(product, prices),
      discount: null,
      prices: prices.map(p => ProductPriceType.fromEntity(p, product)),
    }), now);
    await ctx.em.flush();
    return subscription;
  }
}
