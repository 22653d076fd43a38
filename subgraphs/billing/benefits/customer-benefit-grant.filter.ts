import { Field, ID, InputType } from 'type-graphql';

/** `customerPortalBenefitGrants(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('CustomerBenefitGrantFilter')
export class CustomerBenefitGrantFilterInput {
  @Field(() => String, { nullable: true }) query?: string | null;
  @Field(() => [String], { nullable: true }) type?: string[] | null;
  @Field(() => [ID], { nullable: true }) benefitId?: string[] | null;
  @Field(() => [ID], { nullable: true }) checkoutId?: string[] | null;
  @Field(() => [ID], { nullable: true }) orderId?: string[] | null;
  @Field(() => [ID], { nullable: true }) subscriptionId?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'No members exist here: any id matches nothing.' }) memberId?:
    | string[]
    | null;
}
