import { Field, ID, InputType } from 'type-graphql';

/** `licenseKeys(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('LicenseKeyFilter')
export class LicenseKeyFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) benefitId?: string[] | null;
  @Field(() => [String], { nullable: true }) status?: string[] | null;
}
