import { Field, ID, InputType, Int } from 'type-graphql';
import { AddressInput } from '../customers/customer.inputs.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';

/** Fields a checkout update and the client's update/confirm share (CheckoutUpdatePublic). Absent = unchanged. */
@InputType('CheckoutClientUpdateInput')
export class CheckoutClientUpdateInput {
  @Field(() => ID, { nullable: true }) productId?: string | null;
  @Field(() => ID, { nullable: true }) productPriceId?: string | null;
  @Field(() => MinorUnits, { nullable: true }) amount?: bigint | null;
  @Field(() => Int, { nullable: true }) seats?: number | null;
  @Field(() => Boolean, { nullable: true }) isBusinessCustomer?: boolean | null;
  @Field(() => String, { nullable: true }) customerName?: string | null;
  @Field(() => String, { nullable: true }) customerEmail?: string | null;
  @Field(() => String, { nullable: true }) customerBillingName?: string | null;
  @Field(() => AddressInput, { nullable: true }) customerBillingAddress?: AddressInput | null;
  @Field(() => String, { nullable: true }) customerTaxId?: string | null;
  @Field(() => String, { nullable: true }) locale?: string | null;
  @Field(() => Metadata, { nullable: true }) customFieldData?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true }) discountCode?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Only `false`: the customer declines the trial.' })
  allowTrial?: boolean | null;
}

/** CheckoutConfirmStripe: the client's last changes and the payment method. */
@InputType('CheckoutConfirmInput')
export class CheckoutConfirmInput extends CheckoutClientUpdateInput {
  @Field(() => String, {
    nullable: true,
    description:
      "Stripe's confirmation token; the sandbox's test processor takes Stripe's test method names (pm_card_visa).",
  })
  confirmationTokenId?: string | null;
}

/** CheckoutUpdate (the merchant's): the client's fields and the merchant's own. */
@InputType('CheckoutUpdateInput')
export class CheckoutUpdateInput extends CheckoutClientUpdateInput {
  @Field(() => ID, { nullable: true }) discountId?: string | null;
  @Field(() => Boolean, { nullable: true }) allowDiscountCodes?: boolean | null;
  @Field(() => Boolean, { nullable: true }) requireBillingAddress?: boolean | null;
  @Field(() => String, { nullable: true }) trialInterval?: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount?: number | null;
  @Field(() => String, { nullable: true }) customerIpAddress?: string | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => Metadata, { nullable: true }) customerMetadata?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true }) successUrl?: string | null;
  @Field(() => String, { nullable: true }) returnUrl?: string | null;
  @Field(() => String, { nullable: true }) embedOrigin?: string | null;
  @Field(() => String, { nullable: true }) currency?: string | null;
}

/** CheckoutProductsCreate. */
@InputType('CheckoutCreateInput')
export class CheckoutCreateInput extends CheckoutUpdateInput {
  @Field(() => [ID]) products!: string[];
  @Field(() => Int, { nullable: true }) minSeats?: number | null;
  @Field(() => Int, { nullable: true }) maxSeats?: number | null;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) externalCustomerId?: string | null;
  @Field(() => ID, { nullable: true }) subscriptionId?: string | null;
}
