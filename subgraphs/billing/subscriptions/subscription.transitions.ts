import { randomUUID } from 'node:crypto';
import { BadRequest } from '../../../kit/errors.js';
import {
  ACTIVE_STATUSES,
  BILLABLE_STATUSES,
  CustomerCancellationReason,
  RecurringInterval,
  SubscriptionStatus,
} from '../shared/enums.js';
import type { PendingUpdate, Subscription } from './subscription.entity.js';
import { AlreadyCanceledSubscription, InactiveSubscription, ResourceUnavailable } from './subscription.errors.js';

/**
 * The state machine of a subscription (polar-api.md §9, interface §3). Every change of state goes
 * through one of these named transitions; each checks the state it starts from, refuses every
 * forbidden move with the domain error a client sees, stamps its timestamps once (`modifiedAt` and
 * the transition's own), and returns the webhook kinds it implies besides `subscription.updated`.
 * They are pure over the entity's fields: no I/O, so they are unit-tested as tables.
 *
 * Interpretation of interface §3 rule 1 (documented in docs/architecture.md): any update or revoke of
 * a subscription that is canceled (or otherwise ended: `unpaid`, `incomplete_expired`) or set to
 * cancel at period end answers 403 AlreadyCanceledSubscription, with one exception: uncancel
 * (`cancel_at_period_end: false`) of a subscription set to cancel at period end, which is what undoes
 * that state (polar-api.md §9 "Uncancel"). Polar also lets a cancel-at-period-end subscription be
 * revoked; the interface's rule is explicit that revoke is refused too, and the interface wins.
 */

export type SubscriptionState = Pick<
  Subscription,
  | 'id'
  | 'status'
  | 'productId'
  | 'priceIds'
  | 'amount'
  | 'currency'
  | 'recurringInterval'
  | 'recurringIntervalCount'
  | 'currentPeriodStart'
  | 'currentPeriodEnd'
  | 'trialStart'
  | 'trialEnd'
  | 'cancelAtPeriodEnd'
  | 'canceledAt'
  | 'endsAt'
  | 'endedAt'
  | 'pauseAtPeriodEnd'
  | 'resumesAt'
  | 'seats'
  | 'discountId'
  | 'customerCancellationReason'
  | 'customerCancellationComment'
  | 'metadata'
  | 'pendingUpdate'
  | 'modifiedAt'
>;

/** Webhook kinds a transition implies in addition to `subscription.updated` (polar-api.md §6). */
export type SubscriptionEventKind =
  | 'subscription.canceled'
  | 'subscription.uncanceled'
  | 'subscription.revoked'
  | 'subscription.resumed';

export interface TransitionResult {
  /** False when the call left the subscription as it was (no event, no `modified_at`). */
  changed: boolean;
  events: SubscriptionEventKind[];
}

const UNCHANGED: TransitionResult = { changed: false, events: [] };
const CHANGED: TransitionResult = { changed: true, events: [] };

/** Statuses from which nothing moves any more: canceled, and Polar's other ended ones. */
export const TERMINAL_STATUSES: ReadonlySet<SubscriptionStatus> = new Set([
  SubscriptionStatus.CANCELED,
  SubscriptionStatus.UNPAID,
  SubscriptionStatus.INCOMPLETE_EXPIRED,
]);

export function isTerminal(subscription: Pick<SubscriptionState, 'status' | 'endedAt'>): boolean {
  return TERMINAL_STATUSES.has(subscription.status) || subscription.endedAt !== null;
}

/** Rule 1: nothing changes a canceled subscription or one set to cancel at period end. */
export function assertNotCanceled(subscription: SubscriptionState): void {
  if (isTerminal(subscription) || subscription.cancelAtPeriodEnd) throw new AlreadyCanceledSubscription();
}

function assertBillable(subscription: SubscriptionState): void {
  if (!BILLABLE_STATUSES.has(subscription.status)) throw new InactiveSubscription(subscription.id);
}

function assertActive(subscription: SubscriptionState): void {
  if (!ACTIVE_STATUSES.has(subscription.status)) throw new InactiveSubscription(subscription.id);
}

function touch(subscription: SubscriptionState, now: Date): void {
  subscription.modifiedAt = now;
}

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

/** What the subscription bills after a product change (computed by the use case from the catalog). */
export interface ProductTerms {
  productId: string;
  priceIds: string[];
  amount: bigint;
  currency: string;
  recurringInterval: RecurringInterval;
  recurringIntervalCount: number;
  seats: number | null;
}

/** Switch product now. A change scheduled for the next period is superseded. */
export function changeProduct(subscription: SubscriptionState, terms: ProductTerms, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  assertBillable(subscription);
  if (subscription.productId === terms.productId && subscription.seats === terms.seats) return UNCHANGED;
  subscription.productId = terms.productId;
  subscription.priceIds = [...terms.priceIds];
  subscription.amount = terms.amount;
  subscription.currency = terms.currency;
  subscription.recurringInterval = terms.recurringInterval;
  subscription.recurringIntervalCount = terms.recurringIntervalCount;
  subscription.seats = terms.seats;
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
 * Set or move the trial end (polar-api.md §9 "Trial"). Only active or trialing subscriptions
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

/** `start` plus `count` intervals, in UTC; month ends clamp (Jan 31 + 1 month = Feb 28/29). */
export function addInterval(start: Date, interval: RecurringInterval, count: number): Date {
  const d = new Date(start.getTime());
  switch (interval) {
    case RecurringInterval.DAY:
      d.setUTCDate(d.getUTCDate() + count);
      return d;
    case RecurringInterval.WEEK:
      d.setUTCDate(d.getUTCDate() + 7 * count);
      return d;
    case RecurringInterval.MONTH:
    case RecurringInterval.YEAR: {
      const months = interval === RecurringInterval.MONTH ? count : 12 * count;
      const day = d.getUTCDate();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + months);
      const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(day, lastDay));
      return d;
    }
  }
}

/** Merges the results of several transitions applied in one update. */
export function combine(results: TransitionResult[]): TransitionResult {
  const events: SubscriptionEventKind[] = [];
  for (const r of results) for (const e of r.events) if (!events.includes(e)) events.push(e);
  return { changed: results.some(r => r.changed), events };
}
