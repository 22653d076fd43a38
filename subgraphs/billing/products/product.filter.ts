import { Field, ID, InputType } from 'type-graphql';

/** `products(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('ProductFilter')
export class ProductFilterInput {
  @Field(() => [ID], { nullable: true }) id?: string[] | null;
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => String, { nullable: true }) query?: string | null;
  @Field(() => Boolean, { nullable: true }) isArchived?: boolean | null;
  @Field(() => Boolean, { nullable: true }) isRecurring?: boolean | null;
  @Field(() => [String], { nullable: true }) visibility?: string[] | null;
}
