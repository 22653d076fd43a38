import { randomUUID } from 'node:crypto';
import { BadRequest } from '../../../kit/errors.js';
import {
  ACTIVE_STATUSES,
  BILLABLE_STATUSES,
  CustomerCancellationReason,
  type RecurringInterval,
  SubscriptionStatus,
} from '../shared/enums.js';
import { addInterval } from '../time/calendar.js';
import type { PendingUpdate, Subscription } from './subscription.entity.js';
import { AlreadyCanceledSubscription, InactiveSubscription, ResourceUnavailable } from './subscription.errors.js';

/**
 * The state machine of a subscription (docs/polar/subscription-lifecycle.md, docs/interface.md#subscription-changes). Every change of state goes
 * through one of these named transitions; each checks the state it starts from, refuses every
 * forbidden move with the domain error a client sees, stamps its timestamps once (`modifiedAt` and
 * the transition's own), and returns the webhook kinds it implies besides `subscription.updated`.
 * They are pure over the entity's fields: no I/O, so they are unit-tested as tables.
 *
 * Interpretation of docs/interface.md#subscription-changes rule 1 (documented in docs/subscriptions.md#subscription-updates): any update or revoke of
 * a subscription that is canceled (or otherwise ended: `unpaid`, `incomplete_expired`) or set to
 * cancel at period end answers 403 AlreadyCanceledSubscription, with one exception: uncancel
 * (`cancel_at_period_end: false`) of a subscription set to cancel at period end, which is what undoes
 * that state (docs/polar/subscription-lifecycle.md#uncancel). Polar also lets a cancel-at-period-end subscription be
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

/** Webhook kinds a transition implies in addition to `subscription.updated` (docs/polar/webhooks.md). */
export type SubscriptionEventKind =
  | 'subscription.canceled'
  | 'subscription.uncanceled'
  | 'subscription.revoked'
  | 'subscription.resumed'
  | 'subscription.cycled'
  | 'subscription.active'
  | 'subscription.paused'
  | 'subscription.past_due';

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
  takeTerms(subscription, terms);
  subscription.pendingUpdate = null;
  touch(subscription, now);
  return CHANGED;
}

/** What the subscription bills from now on: the product's terms, written in one place for both changes. */
function takeTerms(subscription: SubscriptionState, terms: ProductTerms): void {
  subscription.productId = terms.productId;
  subscription.priceIds = [...terms.priceIds];
  subscription.amount = terms.amount;
  subscription.currency = terms.currency;
  subscription.recurringInterval = terms.recurringInterval;
  subscription.recurringIntervalCount = terms.recurringIntervalCount;
  subscription.seats = terms.seats;
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

/** Merges the results of several transitions applied in one update. */
export function combine(results: TransitionResult[]): TransitionResult {
  const events: SubscriptionEventKind[] = [];
  for (const r of results) for (const e of r.events) if (!events.includes(e)) events.push(e);
  return { changed: results.some(r => r.changed), events };
}

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
