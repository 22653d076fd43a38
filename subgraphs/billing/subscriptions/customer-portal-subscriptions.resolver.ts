import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { customerView } from '../../../kit/graphql/customer-view.js';
import type { Principal } from '../../../kit/principal.js';
import type { BillingContext } from '../context.js';
import type { PortalAction } from '../customer-portal/portal-settings.js';
import { CustomerSubscriptionCancelInput } from './subscription.inputs.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';
import { SubscriptionUpdatePreviewType } from './subscription-update-preview.type.js';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE } from '../customers/customer.access.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { CustomerSubscriptionFilterInput } from './customer-subscription.filter.js';

/**
 * The authenticated customer's own subscriptions. The results are `BillingSubscription`s; the portal
 * operations select only what Polar's `CustomerSubscription` shows (no customer, discount, metadata).
 */
@Resolver(() => BillingSubscriptionType)
export class CustomerPortalSubscriptionsResolver {
  @Query(() => BillingSubscriptionList, { description: "The customer's subscriptions (customer session token)." })
  async customerPortalSubscriptions(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerSubscriptionFilterInput, { nullable: true })
    filter: CustomerSubscriptionFilterInput | null,
    @Arg('productId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) productIdArg: string[] | null,
    @Arg('active', () => Boolean, { nullable: true, deprecationReason: FILTER_REPLACES }) activeArg: boolean | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    const { productId, active } = mergeFilter(filter, { productId: productIdArg, active: activeArg });
    const result = await ctx.services.subscriptionUpdates.portal.list(ctx, { productId, active, page, limit, sorting });
    return { items: result.items.map(s => portalView(ctx.principal, s)), pagination: result.pagination };
  }

  @Query(() => BillingSubscriptionType)
  async customerPortalSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return portalView(ctx.principal, await ctx.services.subscriptionUpdates.portal.get(ctx, id));
  }

  @Mutation(() => BillingSubscriptionType, {
    description:
      "Change the plan or seats (the organization's proration choice), cancel at period end (true) or uncancel (false).",
  })
  async customerPortalUpdateSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CustomerSubscriptionCancelInput) input: CustomerSubscriptionCancelInput,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    await assertPortalAllowsUpdate(ctx, id, input);
    const updated = await ctx.services.subscriptionUpdates.portal.update(ctx, id, input);
    return portalView(ctx.principal, await ctx.services.subscriptionUpdates.portal.get(ctx, updated.id));
  }

  @Mutation(() => SubscriptionUpdatePreviewType, {
    description:
      'What customerPortalUpdateSubscription with the same input would bill (the order made now, or the next renewal order), changing nothing; refused as that mutation refuses it.',
  })
  async customerPortalPreviewSubscriptionUpdate(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => CustomerSubscriptionCancelInput) input: CustomerSubscriptionCancelInput,
  ): Promise<SubscriptionUpdatePreviewType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    await assertPortalAllowsUpdate(ctx, id, input);
    return SubscriptionUpdatePreviewType.from(await ctx.services.subscriptionUpdates.preview.portal(ctx, id, input));
  }

  @Mutation(() => BillingSubscriptionType, { description: 'Cancel at the end of the current period.' })
  async customerPortalCancelSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    await assertPortalAllows(ctx, id, 'cancel');
    const canceled = await ctx.services.subscriptionUpdates.portal.cancel(ctx, id);
    return portalView(ctx.principal, await ctx.services.subscriptionUpdates.portal.get(ctx, canceled.id));
  }
}

/**
 * What the organization lets its customers do (customer_portal_settings.subscription), for the PATCH and
 * its preview alike; uncancel is always allowed: it undoes what the customer did.
 */
async function assertPortalAllowsUpdate(
  ctx: BillingContext,
  id: string,
  input: CustomerSubscriptionCancelInput,
): Promise<void> {
  if (input.productId != null) await assertPortalAllows(ctx, id, 'update_plan');
  else if (input.seats != null) await assertPortalAllows(ctx, id, 'update_seats');
  else if (input.cancelAtPeriodEnd === true) await assertPortalAllows(ctx, id, 'cancel');
}

/** Another customer's subscription is 404 before the organization's settings are asked (Polar's order). */
async function assertPortalAllows(ctx: BillingContext, id: string, action: PortalAction): Promise<void> {
  await ctx.services.subscriptionUpdates.portal.get(ctx, id);
  await ctx.services.portalSettings.assertAllowed(ctx, action);
}

/**
 * Polar's CustomerSubscription: the subscription without the merchant's metadata and custom field
 * data (and, in subscription.resolver.ts, without customer and discount).
 */
function portalView(principal: Principal, subscription: BillingSubscriptionType): BillingSubscriptionType {
  return customerView(principal, BillingSubscriptionType, subscription, {
    hidden: ['metadata', 'customFieldData'],
  });
}
