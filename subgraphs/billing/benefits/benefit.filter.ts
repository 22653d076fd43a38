import { Field, ID, InputType } from 'type-graphql';

/** `benefits(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('BenefitFilter')
export class BenefitFilterInput {
  @Field(() => [ID], { nullable: true }) id?: string[] | null;
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [String], { nullable: true }) type?: string[] | null;
  @Field(() => String, { nullable: true }) query?: string | null;
}
