import { Field, ID, InputType, Int } from 'type-graphql';
import { Metadata, MinorUnits } from '../shared/scalars.js';

/** CheckoutLinkUpdate: absent = unchanged, null = cleared where Polar allows it. */
@InputType('CheckoutLinkUpdateInput')
export class CheckoutLinkUpdateInput {
  @Field(() => [ID], { nullable: true }) products?: string[] | null;
  @Field(() => String, { nullable: true }) label?: string | null;
  @Field(() => Boolean, { nullable: true }) allowDiscountCodes?: boolean | null;
  @Field(() => Boolean, { nullable: true }) requireBillingAddress?: boolean | null;
  @Field(() => ID, { nullable: true }) discountId?: string | null;
  @Field(() => String, { nullable: true }) successUrl?: string | null;
  @Field(() => String, { nullable: true }) returnUrl?: string | null;
  @Field(() => String, { nullable: true }) trialInterval?: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount?: number | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, unknown> | null;
}

/** CheckoutLinkCreateProducts (the deprecated single-product form is mapped to `products` at the edge). */
@InputType('CheckoutLinkCreateInput')
export class CheckoutLinkCreateInput extends CheckoutLinkUpdateInput {
  @Field(() => [ID]) override products!: string[];
}

/** What the link's URL may prefill in the checkout it opens (Polar's query parameters). */
@InputType('CheckoutLinkOpenInput')
export class CheckoutLinkOpenInput {
  @Field(() => ID, { nullable: true }) productId?: string | null;
  @Field(() => MinorUnits, { nullable: true }) amount?: bigint | null;
  @Field(() => String, { nullable: true }) customerEmail?: string | null;
  @Field(() => String, { nullable: true }) customerName?: string | null;
  @Field(() => String, { nullable: true }) discountCode?: string | null;
  @Field(() => String, { nullable: true }) locale?: string | null;
  @Field(() => Metadata, { nullable: true, description: 'reference_id and utm_* from the URL' })
  metadata?: Record<string, unknown> | null;
}
