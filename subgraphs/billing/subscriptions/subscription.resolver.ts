import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { customerView, refuseCustomer } from '../../../kit/graphql/customer-view.js';
import type { BillingContext } from '../context.js';
import { CustomerType } from '../customers/customer.type.js';
import { DiscountType } from '../discounts/discount.type.js';
import { ProductType } from '../products/product.type.js';
import { CreateSubscriptionInput } from './subscription-create.inputs.js';
import { SubscriptionFilterInput } from './subscription.filters.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';
import { SUBSCRIPTIONS_READ, SUBSCRIPTIONS_WRITE } from './subscription.access.js';
import { onReadReplica } from '../../../kit/database/read-replicas.js';

/**
 * Thin: checks who may call, hands over to the service. Reads return plain objects from the read
 * path with their embedded objects already in them (no per-row work); a write answers with the
 * subscription read back the same way.
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
    return ctx.services.subscriptions.list(onReadReplica(ctx), { filter, page, limit, sorting });
  }

  @Query(() => BillingSubscriptionType)
  async subscription(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return ctx.services.subscriptions.get(ctx, id);
  }

  @Query(() => String, { description: 'The subscriptions as CSV (RFC 4180, header row first).' })
  async subscriptionsExport(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], { nullable: true }) organizationId: string[] | null,
  ): Promise<string> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return ctx.services.subscriptions.export(onReadReplica(ctx), organizationId);
  }

  @Mutation(() => BillingSubscriptionType, {
    description: 'Subscribes a customer to a free recurring product (no checkout, no order).',
  })
  async createSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CreateSubscriptionInput,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_WRITE);
    const created = await ctx.services.subscriptions.create(ctx, input);
    return ctx.services.subscriptions.get(ctx, created.id);
  }

  // The read statement returns these objects in the row; these resolvers only decide what a customer
  // session may see of them (the portal's CustomerSubscription has no customer and no discount, and its
  // product leaves out the merchant's own data). Synchronous: no per-field async work.
  @FieldResolver(() => CustomerType)
  customer(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): CustomerType {
    refuseCustomer(ctx.principal);
    return s.customer;
  }

  @FieldResolver(() => ProductType)
  product(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): ProductType {
    return customerView(ctx.principal, ProductType, s.product, { hidden: PRODUCT_FIELDS_HIDDEN_FROM_CUSTOMERS });
  }

  @FieldResolver(() => DiscountType, {
    nullable: true,
    description: 'The discount applied (Polar embeds it without `products`).',
  })
  discount(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): DiscountType | null {
    refuseCustomer(ctx.principal);
    return s.discount;
  }
}
