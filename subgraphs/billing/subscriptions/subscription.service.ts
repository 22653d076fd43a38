import { PolarRequestValidationError, ResourceNotFound, type ValidationIssue } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import { metadataIssues } from '../shared/metadata.js';
import { recordEvent } from '../events/record-event.js';
import type { ProductPrice } from '../products/product-price.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import { PriceAmountType, SubscriptionStatus } from '../shared/enums.js';
import type { CreateSubscriptionInput } from './subscription-create.inputs.js';
import { subscriptionsCsv } from './subscription.csv.js';
import { Subscription } from './subscription.entity.js';
import { addInterval } from '../time/calendar.js';
import { normaliseFilters, type SubscriptionFilterInput, type SubscriptionFilters } from './subscription.filters.js';
import { subscriptionRead } from './subscription.read.js';
import { scopedOrganizationIds } from '../../../kit/database/tenant-scope.js';
import { SubscriptionRepository } from './subscription.repository.js';
import { BillingSubscriptionType } from './subscription.type.js';
import { subscriptionEventPayload } from './subscription.events.js';
import { subscriptionOrder } from './subscription.sorting.js';
import { organizationNow } from '../time/organization-clocks.js';

export interface SubscriptionListQuery extends PageRequest {
  filter?: SubscriptionFilterInput | null;
  sorting?: string[] | null;
}

/** The period arithmetic lives with the transitions (one implementation); create uses it for the first period. */
export { addInterval };

/** A price that costs nothing: the legacy `free` kind, or a fixed price of 0. */
export function isFreePrice(price: Pick<ProductPrice, 'amountType' | 'priceAmount'>): boolean {
  return (
    price.amountType === PriceAmountType.FREE ||
    (price.amountType === PriceAmountType.FIXED && BigInt(price.priceAmount ?? 0n) === 0n)
  );
}

/**
 * Subscription reads and the direct creation of free subscriptions (docs/interface.md#endpoints). Updates and revoke
 * live in their own use-case files. Stateless: every call receives the request context.
 */
export class SubscriptionService {
  /** One page through the read path: one statement (plus the count when the page cannot tell it). */
  async list(
    ctx: RequestContext,
    query: SubscriptionListQuery,
    scope: SubscriptionFilters = {},
  ): Promise<{ items: BillingSubscriptionType[]; pagination: Pagination }> {
    const { organizationId, ...filters } = { ...normaliseFilters(query.filter), ...scope };
    const { rows, total } = await subscriptionRead.page(
      ctx.em,
      ctx.principal,
      filters,
      subscriptionOrder(query.sorting),
      pageWindow(query),
      { organizationIds: organizationId },
    );
    return { items: rows.map(BillingSubscriptionType.fromRow), pagination: paginationOf(total, query.limit) };
  }

  /**
   * The subscription as served, in one statement (also what a write answers with, read after its
   * commit, so a mutation returns exactly what a get does).
   * @throws ResourceNotFound when absent or another tenant's (same answer for both).
   */
  async get(ctx: RequestContext, id: string): Promise<BillingSubscriptionType> {
    const row = await subscriptionRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return BillingSubscriptionType.fromRow(row);
  }

  /** The CSV of `GET /v1/subscriptions/export`. */
  async export(ctx: RequestContext, organizationIds: string[] | null | undefined): Promise<string> {
    const filters = normaliseFilters({ organizationId: organizationIds });
    return subscriptionsCsv(await new SubscriptionRepository(ctx.em).exportRows(ctx.principal, filters.organizationId));
  }

  /**
   * Subscribes a customer to a free recurring product without a checkout: status `active`, the first
   * period starting now, no order, no e-mail; `subscription.created` is recorded in the outbox in the
   * same flush (one transaction).
   * @throws PolarRequestValidationError unknown/foreign product, not recurring, not free, unknown customer
   */
  async create(ctx: RequestContext, input: CreateSubscriptionInput): Promise<Subscription> {
    const byExternalId = input.customerId == null;
    if ((input.customerId == null) === (input.externalCustomerId == null)) {
      throw new PolarRequestValidationError([
        {
          type: 'value_error',
          loc: ['body'],
          msg: 'Exactly one of customer_id and external_customer_id is required.',
          input: { customer_id: input.customerId ?? null, external_customer_id: input.externalCustomerId ?? null },
        },
      ]);
    }
    if (input.metadata != null) {
      const issues = metadataIssues(input.metadata);
      if (issues.length) throw new PolarRequestValidationError(issues);
    }
    const productIssue = (msg: string): ValidationIssue => ({
      type: 'value_error',
      loc: ['body', 'product_id'],
      msg,
      input: input.productId,
    });
    const products = new ProductRepository(ctx.em);
    const product = scopedOrganizationIds(ctx.principal).length
      ? await products.findReadable(ctx.principal, input.productId)
      : null;
    if (!product) throw new PolarRequestValidationError([productIssue('Product does not exist.')]);
    if (!product.recurringInterval) throw new PolarRequestValidationError([productIssue('Product is not recurring.')]);
    const prices = (await products.pricesOf([product.id])).get(product.id) ?? [];
    if (!prices.length || !prices.every(isFreePrice)) {
      throw new PolarRequestValidationError([
        productIssue('Product is not free. The customer should go through a checkout to create a paid subscription.'),
      ]);
    }
    const customers = new CustomerRepository(ctx.em);
    const found = byExternalId
      ? await customers.findReadableByExternalId(ctx.principal, input.externalCustomerId!, product.organizationId)
      : await customers.findReadable(ctx.principal, input.customerId!);
    const customer = found?.organizationId === product.organizationId ? found : null;
    if (!customer) {
      throw new PolarRequestValidationError([
        {
          type: 'value_error',
          loc: ['body', byExternalId ? 'external_customer_id' : 'customer_id'],
          msg: 'Customer does not exist.',
          input: byExternalId ? input.externalCustomerId : input.customerId,
        },
      ]);
    }
    const now = await organizationNow(ctx, product.organizationId);
    const count = product.recurringIntervalCount ?? 1;
    const interval = product.recurringInterval;
    return ctx.em.transactional(async em => {
      const subscription = em.create(Subscription, {
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
        currentPeriodEnd: addInterval(now, interval, count),
        metadata: input.metadata ?? {},
        createdAt: now,
      } as Subscription);
      await em.flush();
      // The outbox row carries the subscription exactly as the API shows it (webhook `data`), read back
      // in the same transaction, so both commit together.
      recordEvent(
        em,
        subscription.organizationId,
        'subscription.created',
        await subscriptionEventPayload(em, subscription),
        now,
      );
      await em.flush();
      return subscription;
    });
  }
}
