import { Field, ID, InputType } from 'type-graphql';

/** `customerPortalSubscriptions(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('CustomerSubscriptionFilter')
export class CustomerSubscriptionFilterInput {
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
  @Field(() => Boolean, { nullable: true }) active?: boolean | null;
}
