import { DomainError } from '../../../kit/errors.js';

/**
 * The subscription errors of docs/polar/errors.md with Polar's exact class names, statuses and detail
 * texts (the SDKs match `error` literally and read `detail` as a string).
 */

/** 403: already canceled (or revoked), or set to cancel at the end of the period (docs/interface.md#subscription-changes rule 1). */
export class AlreadyCanceledSubscription extends DomainError {
  constructor() {
    super(
      'AlreadyCanceledSubscription',
      'This subscription is already canceled or will be at the end of the period.',
      403,
    );
  }
}

/** 409: another update of the same subscription is in flight (docs/interface.md#subscription-changes rule 2, docs/reliability.md#per-subscription-locking). */
export class SubscriptionLocked extends DomainError {
  constructor() {
    super('SubscriptionLocked', 'This subscription is pending an update.', 409);
  }
}

export type PaymentFailureReason = 'missing_payment_method' | 'card_error';

/** 402: the update needs a payment that failed (docs/interface.md#subscription-changes rule 3). */
export class PaymentFailed extends DomainError {
  readonly reason: PaymentFailureReason;
  constructor(reason: PaymentFailureReason) {
    super('PaymentFailed', `Payment failed with reason: ${reason}.`, 402);
    this.reason = reason;
  }
}

/** 403: trial or billing-period change of a subscription that is not active or trialing. */
export class InactiveSubscription extends DomainError {
  constructor(subscriptionId: string) {
    super('InactiveSubscription', `Subscription ${subscriptionId} is not active.`, 403);
  }
}

/** 410: uncancel of a subscription whose cancellation has already taken effect. */
export class ResourceUnavailable extends DomainError {
  constructor(message = 'Unavailable') {
    super('ResourceUnavailable', message, 410);
  }
}

/** 400: a seats update on a subscription whose product has no seat-based price. */
export class NotASeatBasedSubscription extends DomainError {
  constructor(subscriptionId: string) {
    super('NotASeatBasedSubscription', `Subscription ${subscriptionId} is not a seat-based subscription.`, 400);
  }
}

/** 400: a seat count outside the tiers of the seat-based price. */
export class BelowMinimumSeats extends DomainError {
  constructor(minimum: number) {
    super('BelowMinimumSeats', `The minimum number of seats is ${minimum}.`, 400);
  }
}

export class AboveMaximumSeats extends DomainError {
  constructor(maximum: number) {
    super('AboveMaximumSeats', `The maximum number of seats is ${maximum}.`, 400);
  }
}

/** 409: a pause at period end of a subscription that is not active, or already set to pause. */
export class CannotPauseSubscription extends DomainError {
  constructor() {
    super('CannotPauseSubscription', 'This subscription cannot be paused.', 409);
  }
}

/** 409: `pause_at_period_end: false` on a subscription with no pause scheduled. */
export class NoScheduledPause extends DomainError {
  constructor() {
    super('NoScheduledPause', 'This subscription is not scheduled to be paused.', 409);
  }
}

/** 403: a pause or resume from the customer portal of an organization that does not allow it. */
export class PauseResumeNotAllowed extends DomainError {
  constructor() {
    super('PauseResumeNotAllowed', 'Pausing or resuming a subscription is not allowed.', 403);
  }
}

/** 409: `resume: true` on a subscription that is not paused. */
export class NotPausedSubscription extends DomainError {
  constructor() {
    super('NotPausedSubscription', 'This subscription is not paused.', 409);
  }
}
