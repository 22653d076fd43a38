import type { EntityManager } from '@mikro-orm/postgresql';
import { PaymentFailed } from './subscription.errors.js';
import type { Subscription } from './subscription.entity.js';
import type { RecurringInterval } from '../shared/enums.js';

/** Polar's `SubscriptionProrationBehavior` (polar-api.md §9 "Product change"). */
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
 * The payments seam of subscription updates. The billing engine (its own issue) implements it: it
 * computes the proration with BigInt money functions, writes the `subscription_update` order and
 * charges the customer's payment method synchronously, inside the caller's transaction, throwing
 * `PaymentFailed` (402) when the charge fails so the whole update rolls back.
 */
export interface SubscriptionCharger {
  chargeNow(change: PaidChange): Promise<void>;
}

/**
 * Until the billing engine exists no customer has a payment method, so every paid change fails the way
 * Polar's does for such a customer: 402 PaymentFailed (`missing_payment_method`). Nothing is charged and
 * nothing is faked; the update's transaction rolls back.
 */
export class NoPaymentMethodCharger implements SubscriptionCharger {
  async chargeNow(_change: PaidChange): Promise<void> {
    throw new PaymentFailed('missing_payment_method');
  }
}
