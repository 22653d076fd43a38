import { Field, ID, InputType } from 'type-graphql';

/** `files(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('FileFilter')
export class FileFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) ids?: string[] | null;
}
