import { type RecurringInterval, SubscriptionStatus } from '../../shared/enums.js';
import { addInterval } from '../../time/calendar.js';
import type { Subscription } from '../subscription.entity.js';
import {
  CHANGED,
  type ProductTerms,
  type SubscriptionState,
  takeTerms,
  type TransitionResult,
  touch,
  UNCHANGED,
} from './state.js';

/*
 * The lifecycle's own transitions: what renewals, dunning, resumes and checkouts do to a subscription.
 * The system makes these moves (no client asks for them), so they refuse nothing; each still changes
 * only its own fields, stamps `modifiedAt` where Polar does, and names the webhook kinds it implies.
 */

/** The fields the lifecycle transitions touch besides those of `SubscriptionState`. */
export type LifecycleState = SubscriptionState & Pick<Subscription, 'pausedAt' | 'pastDueAt' | 'checkoutId'>;

/** The subscription's next period, as the calendar computes it from the anchor (time/calendar.ts). */
export interface RenewedPeriod {
  start: Date;
  end: Date;
}

/** A period ended and the next one starts: `active` (a trial ends with its first paid period). */
export function renew(subscription: LifecycleState, period: RenewedPeriod, at: Date): TransitionResult {
  const wasTrialing = subscription.status === SubscriptionStatus.TRIALING;
  subscription.currentPeriodStart = period.start;
  subscription.currentPeriodEnd = period.end;
  subscription.status = SubscriptionStatus.ACTIVE;
  touch(subscription, at);
  return {
    changed: true,
    events: wasTrialing ? ['subscription.cycled', 'subscription.active'] : ['subscription.cycled'],
  };
}

/** A discount whose duration is over is cleared at the renewal (or resume) it stops at. Not stamped. */
export function dropEndedDiscount(subscription: LifecycleState): void {
  subscription.discountId = null;
}

/** A `next_period` change takes effect at the renewal: new product terms, or a new seat count. */
export type ScheduledChange = { terms: ProductTerms } | { seats: number; amount: bigint } | null;

/** The pending update is applied (or dropped when its product can no longer be billed) and cleared. */
export function applyScheduledChange(
  subscription: LifecycleState,
  change: ScheduledChange,
  at: Date,
): TransitionResult {
  if (change && 'terms' in change) {
    takeTerms(subscription, change.terms);
  } else if (change) {
    subscription.amount = change.amount;
    subscription.seats = change.seats;
  }
  subscription.pendingUpdate = null;
  touch(subscription, at);
  return CHANGED;
}

/** A pause asked for at period end takes effect: `paused`, no order until it resumes. */
export function pauseAtEnd(subscription: LifecycleState, at: Date): TransitionResult {
  subscription.status = SubscriptionStatus.PAUSED;
  subscription.pauseAtPeriodEnd = false;
  subscription.pausedAt = at;
  touch(subscription, at);
  return { changed: true, events: ['subscription.paused'] };
}

/**
 * Polar's resume (the `resumes_at` has come, or `{"resume": true}`): `active`, with a new period
 * starting `at` (the anchor moves there).
 */
export function resume(subscription: LifecycleState, at: Date): TransitionResult {
  subscription.status = SubscriptionStatus.ACTIVE;
  subscription.pausedAt = null;
  subscription.resumesAt = null;
  subscription.pauseAtPeriodEnd = false;
  subscription.currentPeriodStart = at;
  subscription.currentPeriodEnd = addInterval(at, subscription.recurringInterval, subscription.recurringIntervalCount);
  touch(subscription, at);
  return { changed: true, events: ['subscription.resumed'] };
}

/** A plan change charged now restarts the period at `now` (the scheduled change is superseded). */
export function restartPeriod(subscription: LifecycleState, now: Date): void {
  subscription.currentPeriodStart = now;
  subscription.currentPeriodEnd = addInterval(now, subscription.recurringInterval, subscription.recurringIntervalCount);
  if (subscription.pendingUpdate) subscription.pendingUpdate = null;
}

/** The first failed automatic charge of a renewal: `past_due` from now (dunning starts). */
export function markPastDue(subscription: LifecycleState, now: Date): TransitionResult {
  if (subscription.status === SubscriptionStatus.PAST_DUE) return UNCHANGED;
  subscription.status = SubscriptionStatus.PAST_DUE;
  subscription.pastDueAt = now;
  touch(subscription, now);
  return { changed: true, events: ['subscription.past_due'] };
}

/** A renewal order of a past-due subscription is paid: `active` again (Polar's reactivation). */
export function recoverFromDunning(subscription: LifecycleState, now: Date): TransitionResult {
  if (subscription.status !== SubscriptionStatus.PAST_DUE) return UNCHANGED;
  subscription.status = SubscriptionStatus.ACTIVE;
  subscription.pastDueAt = null;
  touch(subscription, now);
  return { changed: true, events: ['subscription.active'] };
}

/** The system ends the subscription now; an earlier `canceled_at` (the cancellation asked for) stays. */
function expire(subscription: LifecycleState, now: Date): void {
  subscription.status = SubscriptionStatus.CANCELED;
  subscription.cancelAtPeriodEnd = false;
  subscription.canceledAt = subscription.canceledAt ?? now;
  subscription.endsAt = now;
  subscription.endedAt = now;
  subscription.pendingUpdate = null;
  subscription.pauseAtPeriodEnd = false;
  subscription.resumesAt = null;
  touch(subscription, now);
}

/** The period of a subscription set to cancel at its end is over (`.canceled` was sent when asked). */
export function endAtPeriodEnd(subscription: LifecycleState, now: Date): TransitionResult {
  expire(subscription, now);
  return { changed: true, events: ['subscription.revoked'] };
}

/** Dunning gave up (attempts or time exhausted, or a decline that cannot recover): revoked now. */
export function endAfterDunning(subscription: LifecycleState, now: Date): TransitionResult {
  expire(subscription, now);
  return { changed: true, events: ['subscription.canceled', 'subscription.revoked'] };
}

/** What a paid checkout puts on the free subscription it upgrades. */
export interface CheckoutTerms {
  productId: string;
  priceId: string;
  amount: bigint;
  currency: string;
  discountId: string | null;
  checkoutId: string;
  seats: number | null;
  /** The product's cadence; a one-time product leaves the period as it is. */
  cadence: { interval: RecurringInterval; count: number } | null;
}

/** A checkout upgrades a free subscription to a paid product: `active`, a new period from `now`. */
export function activateFromCheckout(subscription: LifecycleState, terms: CheckoutTerms, now: Date): TransitionResult {
  const wasActive = subscription.status === SubscriptionStatus.ACTIVE;
  subscription.productId = terms.productId;
  subscription.priceIds = [terms.priceId];
  subscription.amount = terms.amount;
  subscription.currency = terms.currency;
  subscription.discountId = terms.discountId;
  subscription.checkoutId = terms.checkoutId;
  subscription.seats = terms.seats;
  subscription.status = SubscriptionStatus.ACTIVE;
  touch(subscription, now);
  if (terms.cadence) {
    subscription.recurringInterval = terms.cadence.interval;
    subscription.recurringIntervalCount = terms.cadence.count;
    subscription.currentPeriodStart = now;
    subscription.currentPeriodEnd = addInterval(now, terms.cadence.interval, terms.cadence.count);
  }
  return { changed: true, events: wasActive ? [] : ['subscription.active'] };
}
