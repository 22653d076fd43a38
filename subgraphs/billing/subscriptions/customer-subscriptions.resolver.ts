import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { BillingContext } from '../context.js';
import { CustomerType } from '../customers/customer.type.js';
import { listSubscriptions, SubscriptionListArgs } from './subscription-list.args.js';
import { BillingSubscriptionList } from './subscription.type.js';

/** `Customer.subscriptions`: the customer's subscriptions, with the filters and sorting of the list. */
@Resolver(() => CustomerType)
export class CustomerSubscriptionsResolver {
  @FieldResolver(() => BillingSubscriptionList, { description: "The customer's subscriptions." })
  async subscriptions(
    @Root() customer: CustomerType,
    @Ctx() ctx: BillingContext,
    @Args() args: SubscriptionListArgs,
  ): Promise<BillingSubscriptionList> {
    return listSubscriptions(ctx, args, { customerId: [customer.id] });
  }
}
