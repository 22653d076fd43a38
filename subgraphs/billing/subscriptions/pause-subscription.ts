import { PolarRequestValidationError } from '../../../kit/errors.js';
import { SubscriptionStatus } from '../shared/enums.js';
import { CannotPauseSubscription, NoScheduledPause, NotPausedSubscription } from './subscription.errors.js';
import { assertNotCanceled, type SubscriptionState, type TransitionResult } from './transitions/state.js';

/**
 * Polar's pause (2026): `SubscriptionPause` schedules a pause at the end of the current period (the
 * renewal engine makes it `paused` then, with no order) or drops the scheduled one; `SubscriptionResume`
 * resumes a paused subscription now (lifecycle/resume.ts). Rule 1 of the interface comes first (a canceled
 * subscription, or one set to cancel at period end, answers 403 AlreadyCanceledSubscription); past it,
 * Polar's own checks (`Subscription.can_pause`, `can_cancel_scheduled_pause`, `can_resume`) answer 409.
 * The request records only `subscription.updated`: `subscription.paused` is sent when the pause takes
 * effect, as Polar does.
 */
export function pauseAtPeriodEnd(subscription: SubscriptionState, resumesAt: Date | null, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  if (
    subscription.status !== SubscriptionStatus.ACTIVE ||
    subscription.pauseAtPeriodEnd ||
    subscription.endsAt !== null
  )
    throw new CannotPauseSubscription();
  if (resumesAt !== null && resumesAt.getTime() <= subscription.currentPeriodEnd.getTime()) {
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'resumes_at'],
        msg: 'resumes_at must be after the current period end.',
        input: resumesAt.toISOString(),
      },
    ]);
  }
  subscription.pauseAtPeriodEnd = true;
  subscription.resumesAt = resumesAt;
  subscription.modifiedAt = now;
  return { changed: true, events: [] };
}

/** `pause_at_period_end: false`: the scheduled pause (and its `resumes_at`) is dropped. */
export function cancelScheduledPause(subscription: SubscriptionState, now: Date): TransitionResult {
  assertNotCanceled(subscription);
  if (!subscription.pauseAtPeriodEnd || subscription.status !== SubscriptionStatus.ACTIVE) throw new NoScheduledPause();
  subscription.pauseAtPeriodEnd = false;
  subscription.resumesAt = null;
  subscription.modifiedAt = now;
  return { changed: true, events: [] };
}

/** The check before `resume: true` (the resume itself bills a period: lifecycle/resume.ts). */
export function assertResumable(subscription: SubscriptionState): void {
  assertNotCanceled(subscription);
  if (subscription.status !== SubscriptionStatus.PAUSED) throw new NotPausedSubscription();
}
