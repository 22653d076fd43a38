import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { listSubscriptions, SubscriptionListArgs } from './subscription-list.args.js';
import { BillingSubscriptionList } from './subscription.type.js';
import { SUBSCRIPTIONS_READ } from './subscription.access.js';

/** `Organization.subscriptions`: billing's field on identity's Organization. */
@Resolver(() => OrganizationRef)
export class OrganizationSubscriptionsResolver {
  @FieldResolver(() => BillingSubscriptionList, { description: "The organization's subscriptions." })
  async subscriptions(
    @Root() organization: OrganizationRef,
    @Ctx() ctx: BillingContext,
    @Args() args: SubscriptionListArgs,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    const requested = args.filter?.organizationId;
    // The organization narrows any organization filter given with it (another one: nothing).
    const organizationId = requested?.length && !requested.includes(organization.id) ? [] : [organization.id];
    if (!organizationId.length) return { items: [], pagination: { totalCount: 0, maxPage: 0 } };
    return listSubscriptions(ctx, args, { organizationId });
  }
}
