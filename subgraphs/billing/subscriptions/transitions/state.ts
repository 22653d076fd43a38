import { ACTIVE_STATUSES, BILLABLE_STATUSES, type RecurringInterval, SubscriptionStatus } from '../../shared/enums.js';
import type { Subscription } from '../subscription.entity.js';
import { AlreadyCanceledSubscription, InactiveSubscription } from '../subscription.errors.js';

/**
 * The state machine of a subscription, in this folder: what every transition shares (this file), the
 * changes a caller asks for (`requested.ts`) and the lifecycle's own moves (`lifecycle.ts`) (docs/polar/subscription-lifecycle.md, docs/interface.md#subscription-changes). Every change of state goes
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

export const UNCHANGED: TransitionResult = { changed: false, events: [] };
export const CHANGED: TransitionResult = { changed: true, events: [] };

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

export function assertBillable(subscription: SubscriptionState): void {
  if (!BILLABLE_STATUSES.has(subscription.status)) throw new InactiveSubscription(subscription.id);
}

export function assertActive(subscription: SubscriptionState): void {
  if (!ACTIVE_STATUSES.has(subscription.status)) throw new InactiveSubscription(subscription.id);
}

export function touch(subscription: SubscriptionState, now: Date): void {
  subscription.modifiedAt = now;
}

/** Merges the results of several transitions applied in one update. */
export function combine(results: TransitionResult[]): TransitionResult {
  const events: SubscriptionEventKind[] = [];
  for (const r of results) for (const e of r.events) if (!events.includes(e)) events.push(e);
  return { changed: results.some(r => r.changed), events };
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

/** What the subscription bills from now on: the product's terms, written in one place for both changes. */
export function takeTerms(subscription: SubscriptionState, terms: ProductTerms): void {
  subscription.productId = terms.productId;
  subscription.priceIds = [...terms.priceIds];
  subscription.amount = terms.amount;
  subscription.currency = terms.currency;
  subscription.recurringInterval = terms.recurringInterval;
  subscription.recurringIntervalCount = terms.recurringIntervalCount;
  subscription.seats = terms.seats;
}
