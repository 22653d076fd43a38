import { Field, ID, InputType } from 'type-graphql';

/** `checkoutLinks(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('CheckoutLinkFilter')
export class CheckoutLinkFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
}
