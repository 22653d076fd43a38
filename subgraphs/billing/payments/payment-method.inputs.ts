import { Field, InputType } from 'type-graphql';

/** Polar's CustomerPaymentMethodCreate. */
@InputType('CustomerPaymentMethodConfirmInput')
export class CustomerPaymentMethodConfirmInput {
  /** The setup the add answered `requires_action` for (Stripe's SetupIntent id; the test processor's `seti_…`). */
  @Field() setupIntentId!: string;
  @Field() setDefault!: boolean;
}

@InputType('CustomerPaymentMethodCreateInput')
export class CustomerPaymentMethodCreateInput {
  /** Stripe's confirmation token from Stripe.js; the test processor takes `pm_card_visa` and the like. */
  @Field() confirmationTokenId!: string;
  @Field() setDefault!: boolean;
  /** Where the processor sends the customer back after an authentication step. */
  @Field() returnUrl!: string;
}
