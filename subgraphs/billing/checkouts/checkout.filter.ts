import { Field, ID, InputType } from 'type-graphql';
import { CheckoutStatusEnum } from '../shared/status-enums.js';

/** `checkouts(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('CheckoutFilter')
export class CheckoutFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) productId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [CheckoutStatusEnum], { nullable: true }) status?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Customer e-mail or name contains.' }) query?: string | null;
}
