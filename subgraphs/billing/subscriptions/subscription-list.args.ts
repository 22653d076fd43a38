import { ArgsType, Field, Int } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { SubscriptionFilterInput, type SubscriptionFilters } from './subscription.filters.js';
import { SUBSCRIPTIONS_READ } from './subscription.access.js';
import type { BillingSubscriptionList } from './subscription.type.js';

/** The arguments of the `subscriptions` fields on other types (`Customer`, `Organization`). */
@ArgsType()
// Declared last-to-first: the committed SDL lists them as the former `@Arg` parameters produced them.
export class SubscriptionListArgs {
  @Field(() => [String], { nullable: true }) sorting!: string[] | null;
  @Field(() => Int, { defaultValue: 10 }) limit!: number;
  @Field(() => Int, { defaultValue: 1 }) page!: number;
  @Field(() => SubscriptionFilterInput, { nullable: true }) filter!: SubscriptionFilterInput | null;
}

/** One page of the subscriptions within `scope` (on top of the requested filters), for a caller with SUBSCRIPTIONS_READ. */
export async function listSubscriptions(
  ctx: BillingContext,
  args: SubscriptionListArgs,
  scope: SubscriptionFilters,
): Promise<BillingSubscriptionList> {
  authorize(ctx.principal, SUBSCRIPTIONS_READ);
  const { filter, page, limit, sorting } = args;
  return ctx.services.subscriptions.list(ctx, { filter, page, limit, sorting }, scope);
}
