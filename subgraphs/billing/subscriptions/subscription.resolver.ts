import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { customerView, refuseCustomer } from '../../../kit/graphql/customer-view.js';
import type { BillingContext } from '../context.js';
import { customerLoader } from '../customers/customer.loader.js';
import { CustomerType } from '../customers/customer.type.js';
import { DiscountType } from '../discounts/discount.type.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { ProductPriceType, ProductType } from '../products/product.type.js';
import { CreateSubscriptionInput } from './subscription-create.inputs.js';
import { SubscriptionFilterInput } from './subscription.filters.js';
import { subscriptionLoaders } from './subscription.loaders.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';
import { SUBSCRIPTIONS_READ, SUBSCRIPTIONS_WRITE } from './subscription.access.js';

/** A related row that must exist (same subgraph, same tenant); its absence is a data error, not a 404. */
function required<T>(value: T | null, what: string, id: string): T {
  if (value === null) throw new Error(`${what} ${id} of a readable subscription is missing`);
  return value;
}

/**
 * Thin: checks who may call, hands over to the service, maps entities to the public type. The
 * embedded objects are field resolvers over per-request loaders (one query per page, not per row).
 */
/** What Polar's CustomerSubscriptionProduct leaves out of the product (the merchant's own data). */
const PRODUCT_FIELDS_HIDDEN_FROM_CUSTOMERS = ['metadata', 'attachedCustomFields'] as const;

@Resolver(() => BillingSubscriptionType)
export class SubscriptionResolver {
  @Query(() => BillingSubscriptionList, { description: 'Subscriptions of the organizations the caller may act for.' })
  async subscriptions(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => SubscriptionFilterInput, { nullable: true }) filter: SubscriptionFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], {
      nullable: true,
      description:
        'customer, status, started_at, current_period_end, ended_at, ends_at, amount, product, discount; `-` = descending. Default -started_at.',
    })
    sorting: string[] | null,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    const result = await ctx.services.subscriptions.list(ctx, { filter, page, limit, sorting });
    return { items: result.items.map(BillingSubscriptionType.fromEntity), pagination: result.pagination };
  }

  @Query(() => BillingSubscriptionType)
  async subscription(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return BillingSubscriptionType.fromEntity(await ctx.services.subscriptions.get(ctx, id));
  }

  @Query(() => String, { description: 'The subscriptions as CSV (RFC 4180, header row first).' })
  async subscriptionsExport(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], { nullable: true }) organizationId: string[] | null,
  ): Promise<string> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return ctx.services.subscriptions.export(ctx, organizationId);
  }

  @Mutation(() => BillingSubscriptionType, {
    description: 'Subscribes a customer to a free recurring product (no checkout, no order).',
  })
  async createSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CreateSubscriptionInput,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_WRITE);
    return BillingSubscriptionType.fromEntity(await ctx.services.subscriptions.create(ctx, input));
  }

  @FieldResolver(() => CustomerType)
  async customer(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): Promise<CustomerType> {
    // The portal's CustomerSubscription has no customer (the customer reads itself at customers/me).
    refuseCustomer(ctx.principal);
    return required(await customerLoader(ctx).load(s.customerId), 'customer', s.customerId);
  }

  @FieldResolver(() => ProductType)
  async product(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): Promise<ProductType> {
    const product = required(await subscriptionLoaders(ctx).products.load(s.productId), 'product', s.productId);
    return customerView(ctx.principal, ProductType, product, { hidden: PRODUCT_FIELDS_HIDDEN_FROM_CUSTOMERS });
  }

  @FieldResolver(() => [ProductPriceType], {
    description: 'The prices billed (replaces the deprecated price and price_id).',
  })
  async prices(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): Promise<ProductPriceType[]> {
    const loaders = subscriptionLoaders(ctx);
    // Usually the product's current prices, which the product loader has fetched for the page anyway;
    // archived ones (a product changed its prices since) are fetched by id.
    const product = await loaders.products.load(s.productId);
    const current = new Map((product?.prices ?? []).map(p => [p.id, p]));
    if (s.priceIds.every(id => current.has(id))) return s.priceIds.map(id => current.get(id)!);
    const prices = await loaders.prices.loadMany([...s.priceIds]);
    return prices.filter((p): p is ProductPriceType => !!p && !(p instanceof Error));
  }

  @FieldResolver(() => DiscountType, {
    nullable: true,
    description: 'The discount applied (Polar embeds it without `products`).',
  })
  async discount(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): Promise<DiscountType | null> {
    refuseCustomer(ctx.principal);
    if (!s.discountId) return null;
    const discount = await subscriptionLoaders(ctx).discounts.load(s.discountId);
    return discount ? DiscountType.fromEntity(discount) : null;
  }

  @FieldResolver(() => OrganizationRef, { description: 'The organization (resolved by the identity subgraph).' })
  organization(@Root() s: BillingSubscriptionType): OrganizationRef {
    return { id: s.organizationId };
  }
}
