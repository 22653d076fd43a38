import { Field, GraphQLISODateTime, ID, InputType, Int } from 'type-graphql';
import { Metadata } from '../shared/scalars.js';

/**
 * Polar's `SubscriptionUpdate` (docs/polar/resources.md#subscription) for GraphQL clients. GraphQL has no input unions,
 * so the alternatives are one input whose fields the service sorts into exactly one alternative
 * (fields of two alternatives in one call → 422, as Polar's `extra="forbid"` variants answer); an
 * empty input is a no-op. Explicit JSON nulls of the REST body become flags here:
 * `discount_id: null` → `removeDiscount`, `pending_update: null` → `clearPendingUpdate`,
 * `trial_end: "now"` → `endTrialNow`.
 */
@InputType('SubscriptionUpdateInput')
export class SubscriptionUpdateInput {
  // SubscriptionUpdateBase
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
  @Field(() => ID, { nullable: true }) productId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'SubscriptionProrationBehavior: invoice | prorate | next_period | reset',
  })
  prorationBehavior?: string | null;
  @Field(() => ID, { nullable: true }) discountId?: string | null;
  @Field(() => Boolean, { nullable: true }) removeDiscount?: boolean | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEnd?: Date | null;
  @Field(() => Boolean, { nullable: true }) endTrialNow?: boolean | null;
  // SubscriptionUpdateSeats
  @Field(() => Int, { nullable: true }) seats?: number | null;
  // SubscriptionUpdateBillingPeriod
  @Field(() => GraphQLISODateTime, { nullable: true }) currentBillingPeriodEnd?: Date | null;
  // SubscriptionCancel (false = uncancel) and SubscriptionRevoke
  @Field(() => Boolean, { nullable: true }) cancelAtPeriodEnd?: boolean | null;
  @Field(() => Boolean, { nullable: true }) revoke?: boolean | null;
  @Field(() => String, { nullable: true, description: 'CustomerCancellationReason' }) customerCancellationReason?:
    | string
    | null;
  @Field(() => String, { nullable: true }) customerCancellationComment?: string | null;
  // SubscriptionPause (false = drop the scheduled pause) and SubscriptionResume
  @Field(() => Boolean, { nullable: true }) pauseAtPeriodEnd?: boolean | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) resumesAt?: Date | null;
  @Field(() => Boolean, { nullable: true }) resume?: boolean | null;
  // SubscriptionUpdateClear
  @Field(() => Boolean, { nullable: true }) clearPendingUpdate?: boolean | null;
}

/** The customer portal's cancel / uncancel (`CustomerSubscriptionCancel`). */
@InputType('CustomerSubscriptionCancelInput')
export class CustomerSubscriptionCancelInput {
  @Field(() => Boolean, { nullable: true }) cancelAtPeriodEnd?: boolean | null;
  @Field(() => String, { nullable: true, description: 'CustomerCancellationReason' }) cancellationReason?:
    | string
    | null;
  @Field(() => String, { nullable: true }) cancellationComment?: string | null;
  @Field(() => ID, { nullable: true, description: "A plan change (the organization's proration choice)." })
  productId?: string | null;
  @Field(() => Int, { nullable: true, description: "A seat change (the organization's proration choice)." })
  seats?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'CustomerSubscriptionPause (false: drop the scheduled pause).' })
  pauseAtPeriodEnd?: boolean | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) resumesAt?: Date | null;
  @Field(() => Boolean, { nullable: true, description: 'CustomerSubscriptionResume.' }) resume?: boolean | null;
}
