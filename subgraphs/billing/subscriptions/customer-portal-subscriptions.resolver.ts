import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { PORTAL_READ } from '../customers/customer-portal.resolver.js';
import { CustomerSubscriptionCancelInput } from './subscription.inputs.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';

/** Customer sessions only (polar-api.md §4: Customer Portal subscriptions). */
export const PORTAL_SUBSCRIPTIONS_READ = PORTAL_READ;
export const PORTAL_SUBSCRIPTIONS_WRITE = { subjects: ['customer'], scopes: ['customer_portal:write'] } as const;

/**
 * The authenticated customer's own subscriptions. The results are `BillingSubscription`s; the portal
 * operations select only what Polar's `CustomerSubscription` shows (no customer, discount, metadata).
 */
@Resolver(() => BillingSubscriptionType)
export class CustomerPortalSubscriptionsResolver {
  @Query(() => BillingSubscriptionList, { description: "The customer's subscriptions (customer session token)." })
  async customerPortalSubscriptions(
    @Ctx() ctx: BillingContext,
    @Arg('productId', () => [ID], { nullable: true }) productId: string[] | null,
    @Arg('active', () => Boolean, { nullable: true }) active: boolean | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, PORTAL_SUBSCRIPTIONS_READ);
    return ctx.services.subscriptionUpdates.portal.list(ctx, { productId, active, page, limit, sorting });
  }

  @Query(() => BillingSubscriptionType)
  async customerPortalSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, PORTAL_SUBSCRIPTIONS_READ);
    return ctx.services.subscriptionUpdates.portal.get(ctx, id);
  }

  @Mutation(() => BillingSubscriptionType, { description: 'Cancel at period end (true) or uncancel (false).' })
  async customerPortalUpdateSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CustomerSubscriptionCancelInput) input: CustomerSubscriptionCancelInput,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, PORTAL_SUBSCRIPTIONS_WRITE);
    const updated = await ctx.services.subscriptionUpdates.portal.update(ctx, id, input);
    return ctx.services.subscriptionUpdates.portal.get(ctx, updated.id);
  }

  @Mutation(() => BillingSubscriptionType, { description: 'Cancel at the end of the current period.' })
  async customerPortalCancelSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, PORTAL_SUBSCRIPTIONS_WRITE);
    const canceled = await ctx.services.subscriptionUpdates.portal.cancel(ctx, id);
    return ctx.services.subscriptionUpdates.portal.get(ctx, canceled.id);
  }
}
