import { DomainError } from '../../../../kit/errors.js';

/** The errors of the portal's confirm-retry-payment, with Polar's class names and statuses (docs/polar/errors.md). */

/** 409: another payment of this order is being made right now. */
export class PaymentAlreadyInProgress extends DomainError {
  constructor() {
    super('PaymentAlreadyInProgress', 'Payment already in progress.', 409);
  }
}

/** 422: the order is not a pending renewal of a past-due subscription (paid, void, not a renewal). */
export class OrderNotEligibleForRetry extends DomainError {
  constructor() {
    super('OrderNotEligibleForRetry', 'Order is not eligible for payment retry.', 422);
  }
}

/** 429 (a business rule, not the rate limiter): the customer has used the manual tries of this order. */
export class ManualRetryLimitExceeded extends DomainError {
  constructor(max: number) {
    super('ManualRetryLimitExceeded', `Maximum manual retry attempts (${max}) exceeded for this order.`, 429);
  }
}
