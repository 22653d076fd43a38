import { DomainError } from '../../../kit/errors.js';

/** The errors of `POST /v1/orders` and its finalize, with Polar's class names and statuses (docs/selling.md#draft-orders). */

/** 403: the organization has not switched on `feature_settings.off_session_charges_enabled`. */
export class OffSessionChargesNotEnabled extends DomainError {
  constructor(organizationId: string) {
    super(
      'OffSessionChargesNotEnabled',
      `Off-session charges are not enabled for this organization (${organizationId}).`,
      403,
    );
  }
}

/** 412: only a `draft` order can be finalized. */
export class OrderNotDraft extends DomainError {
  constructor(orderId: string, status: string) {
    super(
      'OrderNotDraft',
      `Order ${orderId} is not in draft status (current: ${status}). Only draft orders can be modified or finalized.`,
      412,
    );
  }
}

export type PaymentFailedReason = 'missing_payment_method' | 'card_error';

/** 402: no payment method to charge, or the charge was declined; the order is a draft again. */
export class OrderPaymentFailed extends DomainError {
  constructor(reason: PaymentFailedReason) {
    super('PaymentFailed', `Payment failed with reason: ${reason}.`, 402);
  }
}

/** 402: the card asks the customer to authenticate (3-D Secure), which an off-session charge cannot do. */
export class PaymentActionRequired extends DomainError {
  constructor(orderId: string) {
    super(
      'PaymentActionRequired',
      `Order ${orderId} payment requires customer authentication (e.g. 3DS challenge); off-session charge cannot complete.`,
      402,
    );
  }
}
