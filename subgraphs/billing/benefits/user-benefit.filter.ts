import { Field, ID, InputType } from 'type-graphql';

/** `userBenefits(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('UserBenefitFilter')
export class UserBenefitFilterInput {
  @Field(() => [String], { nullable: true }) type?: string[] | null;
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) orderId?: string[] | null;
  @Field(() => [ID], { nullable: true }) subscriptionId?: string[] | null;
}
