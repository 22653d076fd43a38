import { DomainError, PolarRequestValidationError } from '../../../kit/errors.js';
import { DEFAULT_PAYMENT_METHOD_FIELD, type FieldLocation } from './payment-processor.js';

/**
 * A payment method the processor does not know: an unknown test method name, a saved method that
 * is not the customer's, a Stripe confirmation token that does not exist. 422 at the field the
 * method came from (the API passes it in; `["body", "confirmation_token_id"]` by default).
 */
export class InvalidPaymentMethod extends PolarRequestValidationError {
  readonly field: FieldLocation;
  constructor(input: string, message: string, field: FieldLocation = DEFAULT_PAYMENT_METHOD_FIELD) {
    super([{ type: 'value_error', loc: [...field], msg: message, input }]);
    this.field = field;
  }
}

/**
 * 400 `PaymentError` (Polar's class name): a payment was refused, with the processor's message
 * ("Your card was declined."). Processors return declines; the checkout turns one into this error.
 */
export class PaymentError extends DomainError {
  constructor(message: string) {
    super('PaymentError', message, 400);
  }
}

/**
 * No payment processor in production: no Stripe keys and no deliberate `PAYMENT_PROCESSOR=test`.
 * A 4xx on purpose, so the merchant reads the message (a 5xx body never shows its message).
 */
export class PaymentProcessorNotConfigured extends DomainError {
  constructor() {
    super(
      'PaymentProcessorNotConfigured',
      'Payments are not configured on this server: set STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET) to take ' +
        'payments with Stripe, or PAYMENT_PROCESSOR=test to take test payments only. Free products can still be sold.',
      400,
    );
  }
}

/**
 * The processor could not be reached or failed (network, 5xx, rate limit): the outcome is unknown.
 * Retry with the SAME idempotency key; never with a new one. A 503 whose body stays generic.
 */
export class PaymentProcessorUnavailable extends DomainError {
  constructor(cause: string) {
    super('PaymentProcessorUnavailable', `The payment processor could not be reached: ${cause}`, 503);
  }
}

/**
 * The processor refused the request itself (not a decline): a refund larger than what is left, a
 * charge of a customer it does not know. A bug or a race in our code; 500, message in the logs.
 */
export class PaymentProcessorRequestRejected extends DomainError {
  constructor(message: string) {
    super('PaymentProcessorRequestRejected', message, 500);
  }
}

/** One idempotency key sent twice with different parameters: always our bug (Stripe's `idempotency_error`). */
export class IdempotencyKeyReused extends DomainError {
  constructor(key: string) {
    super('IdempotencyKeyReused', `Idempotency key ${key} was already used with different parameters.`, 500);
  }
}

/** 400: a processor webhook whose body is not signed with our endpoint secret, or too old to accept. */
export class InvalidWebhookSignature extends DomainError {
  constructor(reason: string) {
    super('InvalidWebhookSignature', `Invalid webhook signature: ${reason}`, 400);
  }
}

/** 400: the processor declined the card while saving it (Polar's PaymentMethodSetupFailed, portal add). */
export class PaymentMethodSetupFailed extends DomainError {
  constructor(message: string | null) {
    super(
      'PaymentMethodSetupFailed',
      `Could not add this payment method${message ? `: ${message}` : '.'} Please try again with a different card.`,
      400,
    );
  }
}

/** 403: confirming a setup for a customer the processor knows nothing of yet (Polar's CustomerNotReady). */
export class CustomerNotReady extends DomainError {
  constructor() {
    super('CustomerNotReady', 'Customer is not ready for this operation.', 403);
  }
}

/** 400: removing the customer's last method while a subscription still has to be billed (Polar's words). */
export class PaymentMethodInUseByActiveSubscription extends DomainError {
  constructor() {
    super(
      'PaymentMethodInUseByActiveSubscription',
      'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.',
      400,
    );
  }
}

/**
 * The processor says the charge has nothing left to refund (Stripe's `charge_already_refunded`), though
 * our order still shows a refundable amount: it was refunded outside this API (the processor's
 * dashboard). The refund service answers it as Polar does, 403 `RefundedAlready`.
 */
export class ChargeAlreadyRefunded extends Error {
  constructor(detail: string) {
    super(`The processor has already refunded the charge in full: ${detail}`);
  }
}
