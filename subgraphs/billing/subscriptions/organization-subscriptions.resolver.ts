import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { SubscriptionFilterInput } from './subscription.filters.js';
import { SUBSCRIPTIONS_READ } from './subscription.resolver.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';

/** `Organization.subscriptions`: billing's field on identity's Organization. */
@Resolver(() => OrganizationRef)
export class OrganizationSubscriptionsResolver {
  @FieldResolver(() => BillingSubscriptionList, { description: "The organization's subscriptions." })
  async subscriptions(
    @Root() organization: OrganizationRef,
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => SubscriptionFilterInput, { nullable: true }) filter: SubscriptionFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    const requested = filter?.organizationId;
    // The organization narrows any organization filter given with it (another one: nothing).
    const organizationId = requested?.length && !requested.includes(organization.id) ? [] : [organization.id];
    if (!organizationId.length) return { items: [], pagination: { totalCount: 0, maxPage: 0 } };
    const result = await ctx.services.subscriptions.list(ctx, { filter, page, limit, sorting }, { organizationId });
    return { items: result.items.map(BillingSubscriptionType.fromEntity), pagination: result.pagination };
  }
}
