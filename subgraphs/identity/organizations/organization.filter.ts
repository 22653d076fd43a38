import { Field, InputType } from 'type-graphql';

/** `organizations(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('OrganizationFilter')
export class OrganizationFilterInput {
  @Field(() => String, { nullable: true }) slug?: string | null;
}
