import { Field, InputType } from 'type-graphql';

/** Polar's CustomerPaymentMethodCreate. */
@InputType('CustomerPaymentMethodCreateInput')
export class CustomerPaymentMethodCreateInput {
  /** Stripe's confirmation token from Stripe.js; the test processor takes `pm_card_visa` and the like. */
  @Field() confirmationTokenId!: string;
  @Field() setDefault!: boolean;
  /** Where the processor sends the customer back after an authentication step. */
  @Field() returnUrl!: string;
}
