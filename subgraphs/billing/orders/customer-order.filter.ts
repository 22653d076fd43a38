import { Field, ID, InputType } from 'type-graphql';

/** `customerPortalOrders(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('CustomerOrderFilter')
export class CustomerOrderFilterInput {
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
  @Field(() => [String], { nullable: true }) productBillingType?: string[] | null;
  @Field(() => [ID], { nullable: true }) subscriptionId?: string[] | null;
}
