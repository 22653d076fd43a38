import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentFailed } from './subscription.errors.js';
import type { Subscription } from './subscription.entity.js';
import type { RecurringInterval } from '../shared/enums.js';

/** Polar's `SubscriptionProrationBehavior` (docs/polar/subscription-lifecycle.md#product-change). */
export type ProrationBehavior = 'invoice' | 'prorate' | 'next_period' | 'reset';

/** A change of what a subscription bills that moves money now (or at the next renewal, prorated). */
export interface PaidChange {
  em: EntityManager;
  subscription: Subscription;
  /** `next_period` reaches the charger only to be previewed: nothing moves now. */
  behavior: ProrationBehavior;
  now: Date;
  /** What the subscription bills before and after the change, per period, in minor units. */
  from: BilledTerms;
  to: BilledTerms;
  /** Why: a product or seat change, or the end of a trial on a paid product. */
  kind: 'product_change' | 'seats_change' | 'trial_end';
}

/** What a subscription bills per period (interval absent: the subscription's own). */
export interface BilledTerms {
  productId: string;
  amount: bigint;
  currency: string;
  seats: number | null;
  recurringInterval?: RecurringInterval;
  recurringIntervalCount?: number;
}

/**
 * The payments seam of subscription updates, called inside the update's transaction once the change
 * is applied. `PlanChangeCharger` (plan-change-charger.ts) is the real one: it prices the change
 * (plan-change-quote.ts), writes the `subscription_update` order and charges the saved card, or keeps
 * `prorate` lines for the renewal, throwing `PaymentFailed` (402) so the whole update rolls back; the
 * preview passes one that only quotes.
 */
export interface SubscriptionCharger {
  chargeNow(change: PaidChange): Promise<void>;
}

/**
 * Where no payment processor is wired (`createSubscriptionUpdates()` without a charger): every paid
 * change fails the way Polar's does for a customer without a payment method, 402 PaymentFailed
 * (`missing_payment_method`). Nothing is charged and nothing is faked; the update rolls back.
 */
export class NoPaymentMethodCharger implements SubscriptionCharger {
  async chargeNow(_change: PaidChange): Promise<void> {
    throw new PaymentFailed('missing_payment_method');
  }
}
