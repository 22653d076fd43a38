import { Field, ID, InputType } from 'type-graphql';

/** `benefitGrants(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('BenefitGrantFilter')
export class BenefitGrantFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => ID, { nullable: true }) benefitId?: string | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => Boolean, { nullable: true }) isGranted?: boolean | null;
}
