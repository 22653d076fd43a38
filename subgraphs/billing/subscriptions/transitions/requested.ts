import { randomUUID } from 'node:crypto';
import { BadRequest } from '../../../../kit/errors.js';
import { BILLABLE_STATUSES, CustomerCancellationReason, SubscriptionStatus } from '../../shared/enums.js';
import { addInterval } from '../../time/calendar.js';
import type { PendingUpdate } from '../subscription.entity.js';
import { AlreadyCanceledSubscription, ResourceUnavailable } from '../subscription.errors.js';
import {
  assertActive,
  assertBillable,
  assertNotCanceled,
  CHANGED,
  isTerminal,
  type ProductTerms,
  type SubscriptionState,
  takeTerms,
  type TransitionResult,
  touch,
  UNCHANGED,
} from './state.js';

/**
 * The changes a caller asks for (a merchant's update or revoke, a customer's cancel in the portal):
 * each refuses a forbidden move with the error the client sees (the rules are in state.ts).
 */

export interface CancellationDetails {
  reason?: CustomerCancellationReason | null;
  comment?: string | null;
}

/**
 * Cancel at the end of the current period: requires a billable status (active, trialing, past_due)
 * and no cancellation already under way. Status is unchanged; a scheduled pause is dropped.
 */
export function cancelAtPeriodEnd(
  subscription: SubscriptionState,
  details: CancellationDetails,
  now: Date,
): TransitionResult {
  assertNotCanceled(subscription);
  if (!BILLABLE_STATUSES.has(subscription.status)) throw new AlreadyCanceledSubscription();
  subscription.cancelAtPeriodEnd = true;
  subscription.canceledAt = now;
  subscription.endsAt = subscription.currentPeriodEnd;
  subscription.customerCancellationReason = details.reason ?? null;
  subscription.customerCancellationComment = details.comment ?? null;
  subscription.pauseAtPeriodEnd = false;
  subscription.resumesAt = null;
  touch(subscription, now);
  return { changed: true, events: ['subscription.canceled'] };
}

/**
 * Undo a cancel-at-period-end. Canceled → 403 (rule 1); not set to cancel → 400 BadRequest; the
 * period already over (the cancellation took effect, the renewal job has not run yet) → 410.
 */
export function uncancel(subscription: SubscriptionState, now: Date): TransitionResult {
  if (isTerminal(subscription)) throw new AlreadyCanceledSubscription();
  if (!subscription.cancelAtPeriodEnd) throw new BadRequest();
  if (subscription.endsAt !== null && subscription.endsAt.getTime() <= now.getTime()) throw new ResourceUnavailable();
  if (!BILLABLE_STATUSES.has(subscription.status)) throw new BadRequest();
  subscription.cancelAtPeriodEnd = false;
  subscription.canceledAt = null;
  subscription.endsAt = null;
  subscription.customerCancellationReason = null;
  subscription.customerCancellationComment = null;
  touch(subscription, now);
  return { changed: true, events: ['subscription.uncanceled'] };
}

/**
 * Cancel now: any live status becomes `canceled`, with canceled_at = ends_at = ended_at = now. A
 * scheduled change or pause is dropped.
 */
export function revoke(subscription: SubscriptionState, details: CancellationDetails, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  return endNow(subscription, details, now);
}

/**
 * The effect of `revoke` without its rule-1 check, for the system's own cancellations: deleting a
 * customer ends each of its billable subscriptions at once, including one already set to cancel at
 * period end (Polar's `subscription_service.cancel_customer`). Only for subscriptions not yet ended.
 */
export function endNow(subscription: SubscriptionState, details: CancellationDetails, now: Date): TransitionResult {
  subscription.status = SubscriptionStatus.CANCELED;
  subscription.cancelAtPeriodEnd = false;
  subscription.canceledAt = now;
  subscription.endsAt = now;
  subscription.endedAt = now;
  if (details.reason !== undefined) subscription.customerCancellationReason = details.reason ?? null;
  if (details.comment !== undefined) subscription.customerCancellationComment = details.comment ?? null;
  subscription.pendingUpdate = null;
  subscription.pauseAtPeriodEnd = false;
  subscription.resumesAt = null;
  touch(subscription, now);
  return { changed: true, events: ['subscription.canceled', 'subscription.revoked'] };
}

/** Switch product now. A change scheduled for the next period is superseded. */
export function changeProduct(subscription: SubscriptionState, terms: ProductTerms, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  assertBillable(subscription);
  if (subscription.productId === terms.productId && subscription.seats === terms.seats) return UNCHANGED;
  takeTerms(subscription, terms);
  subscription.pendingUpdate = null;
  touch(subscription, now);
  return CHANGED;
}

/** Change the seat count now (the amount is the seat price's total for the new count). */
export function changeSeats(
  subscription: SubscriptionState,
  seats: number,
  amount: bigint,
  now: Date,
): TransitionResult {
  assertNotCanceled(subscription);
  assertBillable(subscription);
  if (subscription.seats === seats) return UNCHANGED;
  subscription.seats = seats;
  subscription.amount = amount;
  subscription.pendingUpdate = null;
  touch(subscription, now);
  return CHANGED;
}

/**
 * Store a product and/or seat change to apply at the next renewal (`proration_behavior: next_period`).
 * A second one replaces the first.
 */
export function schedulePendingUpdate(
  subscription: SubscriptionState,
  change: { productId?: string | null; seats?: number | null },
  now: Date,
): TransitionResult {
  assertNotCanceled(subscription);
  assertBillable(subscription);
  const pending: PendingUpdate = {
    id: randomUUID(),
    created_at: now.toISOString(),
    applies_at: subscription.currentPeriodEnd.toISOString(),
    product_id: change.productId ?? null,
    seats: change.seats ?? null,
  };
  subscription.pendingUpdate = pending;
  touch(subscription, now);
  return CHANGED;
}

/** Drop the scheduled change (`{"pending_update": null}`); a no-op when there is none. */
export function clearPendingUpdate(subscription: SubscriptionState, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  if (subscription.pendingUpdate === null) return UNCHANGED;
  subscription.pendingUpdate = null;
  touch(subscription, now);
  return CHANGED;
}

export function applyDiscount(subscription: SubscriptionState, discountId: string, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  if (subscription.discountId === discountId) return UNCHANGED;
  subscription.discountId = discountId;
  touch(subscription, now);
  return CHANGED;
}

export function removeDiscount(subscription: SubscriptionState, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  if (subscription.discountId === null) return UNCHANGED;
  subscription.discountId = null;
  touch(subscription, now);
  return CHANGED;
}

/**
 * Set or move the trial end (docs/polar/subscription-lifecycle.md#trial). Only active or trialing subscriptions
 * (others: 403 InactiveSubscription).
 * - a future date on an active subscription starts a trial until then; it must lie after the current
 *   period end (the use case checks, as a 422 on `trial_end`); the current period runs to it;
 * - a future date on a trialing subscription moves the trial end and the period end with it;
 * - `now` ends a trial at once: status `active`, a new period starts now. Ending the trial of a
 *   subscription that is not trialing is refused (400).
 */
export function setTrialEnd(subscription: SubscriptionState, trialEnd: Date | 'now', now: Date): TransitionResult {
  assertNotCanceled(subscription);
  assertActive(subscription);
  if (trialEnd === 'now') {
    if (subscription.status !== SubscriptionStatus.TRIALING) throw new BadRequest('The subscription is not trialing.');
    subscription.status = SubscriptionStatus.ACTIVE;
    subscription.trialEnd = now;
    subscription.currentPeriodStart = now;
    subscription.currentPeriodEnd = addInterval(
      now,
      subscription.recurringInterval,
      subscription.recurringIntervalCount,
    );
    if (subscription.pendingUpdate)
      subscription.pendingUpdate = {
        ...subscription.pendingUpdate,
        applies_at: subscription.currentPeriodEnd.toISOString(),
      };
    touch(subscription, now);
    return CHANGED;
  }
  if (subscription.status === SubscriptionStatus.ACTIVE) {
    subscription.status = SubscriptionStatus.TRIALING;
    subscription.trialStart = now;
  }
  subscription.trialEnd = trialEnd;
  subscription.currentPeriodEnd = trialEnd;
  if (subscription.pendingUpdate)
    subscription.pendingUpdate = { ...subscription.pendingUpdate, applies_at: trialEnd.toISOString() };
  touch(subscription, now);
  return CHANGED;
}

/** Move the end of the current period (no proration). Active or trialing only. */
export function setBillingPeriodEnd(subscription: SubscriptionState, end: Date, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  assertActive(subscription);
  if (subscription.currentPeriodEnd.getTime() === end.getTime()) return UNCHANGED;
  subscription.currentPeriodEnd = end;
  if (subscription.status === SubscriptionStatus.TRIALING) subscription.trialEnd = end;
  if (subscription.pendingUpdate)
    subscription.pendingUpdate = { ...subscription.pendingUpdate, applies_at: end.toISOString() };
  touch(subscription, now);
  return CHANGED;
}

/** Replace the metadata (Polar replaces the whole map on update). */
export function updateMetadata(
  subscription: SubscriptionState,
  metadata: Record<string, string | number | boolean>,
  now: Date,
): TransitionResult {
  assertNotCanceled(subscription);
  if (JSON.stringify(subscription.metadata) === JSON.stringify(metadata)) return UNCHANGED;
  subscription.metadata = { ...metadata };
  touch(subscription, now);
  return CHANGED;
}
