import type { Card } from './fake-stripe-cards.js';
import { id, type Json } from './fake-stripe-wire.js';

/**
 * 3-D Secure in the fake Stripe (H1's block, kept apart from the confirmation-token work): Stripe's test
 * methods that ask for authentication on every on-session payment and on saving
 * (`pm_card_threeDSecure2Required`, `pm_card_authenticationRequired`, docs.stripe.com/testing). The
 * intent is answered `requires_action` with `next_action` and a client secret; off-session, a 402
 * `authentication_required` decline, as Stripe answers. Tests then send the webhook that settles it.
 */
export const THREE_D_SECURE_CARDS: Record<string, Card> = {
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', declined: null, chargeFails: false },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', declined: null, chargeFails: false },
};

export const requiresAuthentication = (testName: string | undefined) =>
  !!testName && Object.hasOwn(THREE_D_SECURE_CARDS, testName);

/** The intent waiting for the customer (`requires_action`), or Stripe's off-session decline. */
export function actionAnswer(intent: Json, offSession: boolean): [number, Json] {
  if (offSession) {
    const error = {
      type: 'card_error',
      code: 'authentication_required',
      decline_code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    };
    intent.status = 'requires_payment_method';
    intent.last_payment_error = error;
    return [402, { error: { ...error, payment_intent: intent } }];
  }
  intent.status = 'requires_action';
  intent.client_secret = `${intent.id}_secret_${id()}`;
  intent.next_action = {
    type: 'use_stripe_sdk',
    use_stripe_sdk: {
      type: 'three_d_secure_redirect',
      stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted/${id()}`,
    },
  };
  return [200, intent];
}

/**
 * `POST /v1/payment_intents/{id}/cancel`: an intent that can still be canceled becomes `canceled`;
 * one that succeeded or was canceled already is Stripe's 400 `payment_intent_unexpected_state`, the
 * intent in the error as Stripe sends it.
 */
export function cancelAnswer(intent: Json | undefined, path: string, p: Json): [number, Json] {
  if (!intent)
    return [
      404,
      {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: ${path}` },
      },
    ];
  if (
    !['requires_payment_method', 'requires_confirmation', 'requires_action', 'requires_capture'].includes(intent.status)
  )
    return [
      400,
      {
        error: {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          payment_intent: intent,
        },
      },
    ];
  intent.status = 'canceled';
  intent.cancellation_reason = p.cancellation_reason ?? null;
  intent.canceled_at = Math.floor(Date.now() / 1000);
  intent.next_action = null;
  return [200, intent];
}
