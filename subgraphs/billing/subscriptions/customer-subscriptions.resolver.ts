import { Arg, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CustomerType } from '../customers/customer.type.js';
import { SubscriptionFilterInput } from './subscription.filters.js';
import { SUBSCRIPTIONS_READ } from './subscription.resolver.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';

/** `Customer.subscriptions`: the customer's subscriptions, with the filters and sorting of the list. */
@Resolver(() => CustomerType)
export class CustomerSubscriptionsResolver {
  @FieldResolver(() => BillingSubscriptionList, { description: "The customer's subscriptions." })
  async subscriptions(
    @Root() customer: CustomerType,
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => SubscriptionFilterInput, { nullable: true }) filter: SubscriptionFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    const result = await ctx.services.subscriptions.list(ctx, { filter, page, limit, sorting }, { customerId: [customer.id] });
    return { items: result.items.map(BillingSubscriptionType.fromEntity), pagination: result.pagination };
  }
}
