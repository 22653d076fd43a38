import { Field, ID, InputType } from 'type-graphql';

/** `discounts(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('DiscountFilter')
export class DiscountFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => String, { nullable: true }) query?: string | null;
}
