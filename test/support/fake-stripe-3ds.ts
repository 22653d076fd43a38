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
