import { Field, ID, InputType } from 'type-graphql';

/** `organizationAccessTokens(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('OrganizationAccessTokenFilter')
export class OrganizationAccessTokenFilterInput {
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
}
