import { Field, ID, InputType } from 'type-graphql';

/**
 * CustomerSessionCustomerIDCreate | CustomerSessionCustomerExternalIDCreate: exactly one of
 * `customerId` and `externalCustomerId` (the REST adapter also maps the deprecated
 * `customer_external_id` onto the latter).
 */
@InputType('CreateCustomerSessionInput')
export class CreateCustomerSessionInput {
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) externalCustomerId?: string | null;
  @Field(() => String, { nullable: true }) returnUrl?: string | null;
  /** Member sessions (member-model organizations) are not offered: accepted and ignored. */
  @Field(() => ID, { nullable: true }) memberId?: string | null;
  @Field(() => String, { nullable: true }) externalMemberId?: string | null;
}

/** Polar's CustomerSessionCodeRequest (the member model's `customer_id` is not offered). */
@InputType('CustomerSessionCodeRequestInput')
export class CustomerSessionCodeRequestInput {
  @Field() email!: string;
  @Field() organizationId!: string;
}
