import { THREE_D_SECURE_CARDS } from './fake-stripe-3ds.js';
import { CARDS } from './fake-stripe-cards.js';
import { signedStripeEvent, stripeEvent } from './fake-stripe-events.js';
import { id, type Json, missing, now } from './fake-stripe-wire.js';

/**
 * The fake Stripe's confirmation tokens and next actions, what Stripe.js asks Stripe's API for
 * (fake-stripe-js.ts forwards the browser's calls here): a card number typed into the fake Payment
 * Element becomes a `ctoken_…` standing for one of Stripe's test methods, and a PaymentIntent that
 * requires an action is completed or failed the way the buyer answered the bank's challenge.
 */

/**
 * Stripe's test card numbers and the test method each one is. Kept apart from the sandbox test
 * processor's table (subgraphs/billing/payments/test-processor/test-card-numbers.ts) on purpose: this
 * fake stands for Stripe, so it holds Stripe's facts itself rather than taking the code under test's word.
 */
export const TEST_CARD_NUMBERS: Record<string, string> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '378282246310005': 'pm_card_amex',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
  '4000000000000341': 'pm_card_chargeCustomerFail',
  '4000000000003220': 'pm_card_threeDSecure2Required',
  '4000002760003184': 'pm_card_authenticationRequired',
};

/** `POST /v1/confirmation_tokens` (Stripe.js `createConfirmationToken`): a card number, or a test method name. */
export function mintConfirmationToken(p: Json, tokens: Map<string, string>): [number, Json] {
  const number = String(p.payment_method_data?.card?.number ?? '').replace(/\s/g, '');
  const name = p.payment_method ?? TEST_CARD_NUMBERS[number];
  const card = name ? (CARDS[name] ?? THREE_D_SECURE_CARDS[name]) : undefined;
  if (!card)
    return [
      402,
      {
        error: {
          type: 'card_error',
          code: 'invalid_number',
          param: 'number',
          message: 'Your card number is invalid.',
        },
      },
    ];
  const token = {
    id: `ctoken_${id()}`,
    object: 'confirmation_token',
    created: now(),
    livemode: false,
    payment_method_preview: { type: 'card', card: { brand: card.brand, last4: card.last4 } },
  };
  tokens.set(token.id, name);
  return [200, token];
}

/** What real Stripe leaves on a PaymentIntent whose authentication failed. */
export const AUTHENTICATION_FAILED = {
  type: 'card_error',
  code: 'payment_intent_authentication_failure',
  message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

/**
 * The buyer answered the challenge: the PaymentIntent succeeds, or goes back to
 * `requires_payment_method` with the authentication failure; the event Stripe sends about it.
 */
export function settleNextAction(intent: Json, succeed: boolean): { type: string; object: Json } {
  if (succeed) {
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.next_action = null;
    return { type: 'payment_intent.succeeded', object: intent };
  }
  intent.status = 'requires_payment_method';
  intent.next_action = null;
  intent.last_payment_error = { ...AUTHENTICATION_FAILED, payment_method: { id: intent.payment_method } };
  return { type: 'payment_intent.payment_failed', object: intent };
}

/**
 * Where the fake Stripe delivers the events of next actions, signed with `secret` at `clock`'s time
 * (default the real time; a service on a manual clock checks the signature's age by that clock).
 */
export interface WebhookEndpoint {
  url: string;
  secret: string;
  clock?: () => Date;
}

/**
 * The fake Stripe's two Stripe.js endpoints: `POST /v1/confirmation_tokens`, and
 * `POST /v1/test_helpers/payment_intents/next_action` (`client_secret`, `outcome`: `complete` or
 * `fail`), which settles a PaymentIntent that requires an action and sends Stripe's event about it.
 */
export function stripeJsRequest(
  path: string,
  p: Json,
  tokens: Map<string, string>,
  intents: Map<string, Json>,
  endpoint: WebhookEndpoint | null,
): [number, Json] {
  if (path === '/v1/confirmation_tokens') return mintConfirmationToken(p, tokens);
  const intent = [...intents.values()].find(i => i.client_secret === p.client_secret);
  if (!intent) return missing({ payment_intent: p.client_secret }, 'payment_intent');
  if (intent.status !== 'requires_action') return [200, intent];
  const { type, object } = settleNextAction(intent, p.outcome === 'complete');
  if (endpoint) void deliver(endpoint, type, object);
  return [200, intent];
}

async function deliver(endpoint: WebhookEndpoint, type: string, object: Json): Promise<void> {
  const { payload, header } = signedStripeEvent(
    stripeEvent(type, object),
    endpoint.secret,
    endpoint.clock?.() ?? new Date(),
  );
  await fetch(endpoint.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  }).catch(() => undefined);
}
