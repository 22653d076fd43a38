import { Field, ID, InputType } from 'type-graphql';

/** `customerPortalLicenseKeys(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('CustomerLicenseKeyFilter')
export class CustomerLicenseKeyFilterInput {
  @Field(() => ID, { nullable: true }) benefitId?: string | null;
}
