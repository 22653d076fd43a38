import { Field, ID, InputType } from 'type-graphql';

/** `customerPortalDownloadables(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('DownloadableFilter')
export class DownloadableFilterInput {
  @Field(() => [ID], { nullable: true }) benefitId?: string[] | null;
}
