import type Stripe from 'stripe';
import {
  ChargeAlreadyRefunded,
  IdempotencyKeyReused,
  InvalidPaymentMethod,
  PaymentProcessorRequestRejected,
  PaymentProcessorUnavailable,
} from '../payment.errors.js';
import type { FieldLocation, PaymentFailure } from '../payment-processor.js';
import { stripeModule } from './stripe-module.js';

/** A card error (`type: card_error`, HTTP 402) is a decline: an outcome, returned, not thrown. */
export function declineOf(error: unknown): PaymentFailure | null {
  if (!(error instanceof stripeModule().errors.StripeCardError)) return null;
  return {
    code: error.code ?? 'card_declined',
    declineCode: error.decline_code ?? null,
    message: error.message,
  };
}

/**
 * The failure an intent carries (`last_payment_error`, `last_setup_error`) as ours; `code` and `message`
 * stand in for what Stripe left out.
 */
export function intentFailureOf(
  error: { code?: string; decline_code?: string; message?: string } | null | undefined,
  code: string,
  message = 'The payment could not be completed.',
): PaymentFailure {
  return { code: error?.code ?? code, declineCode: error?.decline_code ?? null, message: error?.message ?? message };
}

/**
 * Every other Stripe error becomes one of ours: a payment method or confirmation token Stripe does
 * not know is a 422 at the caller's field; a reused idempotency key is our bug; network failures,
 * Stripe's 5xx, rate limits and a rejected secret key mean the outcome is unknown (retry with the
 * same key). What Stripe refused otherwise is a bug of ours, kept in the message for the logs.
 */
export function translateStripeError(
  error: unknown,
  paymentMethod: { token: string; field?: FieldLocation } | null,
): Error {
  if (!(error instanceof stripeModule().errors.StripeError))
    return error instanceof Error ? error : new Error(String(error));
  if (error instanceof stripeModule().errors.StripeIdempotencyError) return new IdempotencyKeyReused(keyOf(error));
  if (error instanceof stripeModule().errors.StripeInvalidRequestError && error.code === 'charge_already_refunded')
    return new ChargeAlreadyRefunded(error.message);
  if (
    paymentMethod &&
    error instanceof stripeModule().errors.StripeInvalidRequestError &&
    error.code === 'resource_missing' &&
    ['payment_method', 'confirmation_token'].includes(error.param ?? '')
  )
    return new InvalidPaymentMethod(paymentMethod.token, 'Payment method does not exist.', paymentMethod.field);
  if (
    error instanceof stripeModule().errors.StripeConnectionError ||
    error instanceof stripeModule().errors.StripeAPIError ||
    error instanceof stripeModule().errors.StripeRateLimitError
  )
    return new PaymentProcessorUnavailable(`${error.type}: ${error.message}`);
  if (error instanceof stripeModule().errors.StripeAuthenticationError)
    return new PaymentProcessorUnavailable('Stripe refused the secret key: check STRIPE_SECRET_KEY.');
  return new PaymentProcessorRequestRejected(
    `Stripe refused the request (${error.type} ${error.code ?? ''}): ${error.message}`,
  );
}

function keyOf(error: Stripe.errors.StripeError): string {
  return error.headers?.['idempotency-key'] ?? '(unknown key)';
}
