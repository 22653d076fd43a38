/**
 * Dunning: what happens after a renewal charge fails (docs/polar/subscription-lifecycle.md). Pure functions of the
 * attempts made so far; the engine stores `past_due_at`, the order's `next_payment_attempt_at` and
 * the attempt count, and asks these when to try again and when to give up.
 *
 * - The failed renewal charge is attempt 1: the subscription becomes `past_due`, `past_due_at` = then.
 * - Automatic retries follow after 2, 5, 7 and 7 days, each counted from the failure before it
 *   (so at +2, +7, +14 and +21 days when every attempt happens on time).
 * - When the 4th retry fails there is no next attempt: the subscription is revoked.
 * - A non-recoverable decline (the card can never succeed: lost, stolen, closed) skips the retries:
 *   the next attempt is the deadline, past_due_at + 21 days + 1 minute (Polar's), which then revokes.
 * - A customer may retry by hand from the portal, at most 5 times per order; manual tries do not move
 *   the automatic schedule.
 */

const DAY_MS = 86_400_000;

/** Polar's DUNNING_RETRY_INTERVALS, in days, each after the previous failure. */
export const DUNNING_RETRY_INTERVAL_DAYS: readonly number[] = [2, 5, 7, 7];

/** How many times a customer may pay a pending order by hand (Polar's confirm-retry-payment). */
export const MAX_MANUAL_PAYMENT_ATTEMPTS = 5;

/** past_due_at + 21 days + 1 minute: after it nothing is retried. */
export function dunningDeadline(pastDueAt: Date): Date {
  const days = DUNNING_RETRY_INTERVAL_DAYS.reduce((sum, d) => sum + d, 0);
  return new Date(pastDueAt.getTime() + days * DAY_MS + 60_000);
}

export interface FailedAttempt {
  /** Automatic attempts that have failed so far, this one included (1 = the renewal charge itself). */
  failedAttempts: number;
  /** When this attempt failed (the organization's clock). */
  failedAt: Date;
  /** When the subscription became past due (the first failure). */
  pastDueAt: Date;
  /** False for a decline no retry can fix. */
  recoverable: boolean;
}

/** The outcome of a failed automatic attempt: retry at an instant, or revoke now. */
export type DunningDecision = { action: 'retry'; at: Date } | { action: 'revoke' };

export function afterFailedAttempt(attempt: FailedAttempt): DunningDecision {
  if (!Number.isInteger(attempt.failedAttempts) || attempt.failedAttempts < 1)
    throw new RangeError(`failedAttempts must be ≥ 1: ${attempt.failedAttempts}`);
  const deadline = dunningDeadline(attempt.pastDueAt);
  // At or after (Polar: after): a clock that runs the deadline's retry exactly at the deadline must revoke.
  if (attempt.failedAt.getTime() >= deadline.getTime()) return { action: 'revoke' };
  if (!attempt.recoverable) return { action: 'retry', at: deadline };
  const interval = DUNNING_RETRY_INTERVAL_DAYS[attempt.failedAttempts - 1];
  if (interval === undefined) return { action: 'revoke' };
  return { action: 'retry', at: new Date(attempt.failedAt.getTime() + interval * DAY_MS) };
}

/** The automatic retries of a subscription whose every attempt fails on time: +2, +7, +14, +21 days. */
export function dunningSchedule(pastDueAt: Date): Date[] {
  const schedule: Date[] = [];
  let at = pastDueAt;
  for (const days of DUNNING_RETRY_INTERVAL_DAYS) {
    at = new Date(at.getTime() + days * DAY_MS);
    schedule.push(at);
  }
  return schedule;
}

/** Whether a customer may try paying the order by hand once more. */
export function canRetryManually(manualAttemptsSoFar: number): boolean {
  return manualAttemptsSoFar < MAX_MANUAL_PAYMENT_ATTEMPTS;
}

/**
 * How long a payment of an order may wait for the customer (3-D Secure) before it counts as abandoned
 * (Polar's PAYMENT_LOCK_STALE_THRESHOLD). While it waits, the order's dunning retry is held back and
 * another manual try is refused, so the order cannot be paid twice; after it, dunning goes on.
 */
export const PAYMENT_WAIT_MS = 3_600_000;

/** The instant before which a waiting payment created then counts as abandoned at `at`. */
export function abandonedBefore(at: Date): Date {
  return new Date(at.getTime() - PAYMENT_WAIT_MS);
}
