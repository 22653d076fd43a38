import { Field, ID, InputType } from 'type-graphql';
import { Metadata } from '../shared/scalars.js';

/**
 * `SubscriptionCreateCustomer | SubscriptionCreateExternalCustomer` (docs/polar/resources.md#subscription) as one input:
 * exactly one of `customerId` and `externalCustomerId` (the service refuses both or neither).
 */
@InputType('CreateSubscriptionInput')
export class CreateSubscriptionInput {
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) externalCustomerId?: string | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
}
