import { DomainError, PolarRequestValidationError } from '../../../kit/errors.js';

/** 403: the order is already fully refunded (Polar's RefundedAlready). */
export class RefundedAlready extends DomainError {
  constructor(orderId: string) {
    super('RefundedAlready', `Order is already fully refunded: ${orderId}`, 403);
  }
}

/**
 * 422 at `amount`: more than the order's `refundable_amount` (Polar answers this since late 2025;
 * its older 400 `RefundAmountTooHigh` is what it catches to say so).
 */
export class RefundAmountTooHigh extends PolarRequestValidationError {
  constructor(amount: bigint) {
    super([
      {
        type: 'value_error',
        loc: ['body', 'amount'],
        msg: 'Refund amount exceeds refundable amount',
        input: Number(amount),
      },
    ]);
  }
}

/** 422 at `order_id`: no order the caller may read has this id (Polar's answer, not a 404). */
export class RefundOrderNotFound extends PolarRequestValidationError {
  constructor(orderId: string) {
    super([{ type: 'value_error', loc: ['body', 'order_id'], msg: 'Order not found', input: orderId }]);
  }
}

/** 400: a subscription's benefits go when the subscription is revoked, not with a refund (Polar's rule). */
export class RevokeSubscriptionBenefitsProhibited extends DomainError {
  constructor() {
    super('RevokeSubscriptionBenefitsProhibited', 'Subscription benefits can only be revoked upon cancellation', 400);
  }
}

/** 404: the order has no succeeded payment to refund (pending, or never charged); Polar's RefundUnknownPayment. */
export class RefundUnknownPayment extends DomainError {
  constructor(orderId: string) {
    super('RefundUnknownPayment', `Refund issued for unknown order: ${orderId}`, 404);
  }
}
