import type { PaymentFailure } from '../payment-processor.js';
import { testMethodName } from './test-card-numbers.js';

/**
 * The built-in test processor's payment methods: Stripe's test PaymentMethod names
 * (docs.stripe.com/testing), with the brand and last four digits of the card each stands for, so a
 * client written against Stripe's test mode works unchanged in our sandbox.
 *
 * `setup` is what saving the method does, `charge` what charging it does. Saving runs the same card
 * check as a charge for the declined cards (a SetupIntent authorizes the card), so only
 * `pm_card_chargeCustomerFail` can be saved and then fail every charge — the card dunning tests use.
 *
 * `authenticate`: the card asks for 3-D Secure on every on-session charge and on saving it (answered
 * `requires_action`, settled by the sandbox's challenge page); off-session, where nobody can
 * authenticate, a charge is declined `authentication_required`, as Stripe declines it.
 */
export interface TestCard {
  brand: string;
  last4: string;
  setup: PaymentFailure | null;
  charge: PaymentFailure | null;
  authenticate?: boolean;
}

const declined: PaymentFailure = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};
const insufficientFunds: PaymentFailure = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};

/** Stripe's decline of an off-session charge that needed the customer to authenticate. */
export const AUTHENTICATION_REQUIRED: PaymentFailure = {
  code: 'authentication_required',
  declineCode: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
};

/** What the challenge page's "Fail authentication" answers (Stripe's code for a failed 3-D Secure). */
export const AUTHENTICATION_FAILED: PaymentFailure = {
  code: 'payment_intent_authentication_failure',
  declineCode: null,
  message: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
};

/** An abandoned charge canceled by billing (Stripe's `cancellation_reason: abandoned`). */
export const CHARGE_CANCELED: PaymentFailure = {
  code: 'payment_intent_canceled',
  declineCode: null,
  message: 'The payment was canceled because it was not authenticated in time.',
};

export const TEST_CARDS: Readonly<Record<string, TestCard>> = Object.freeze({
  pm_card_visa: { brand: 'visa', last4: '4242', setup: null, charge: null },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', setup: null, charge: null },
  pm_card_amex: { brand: 'amex', last4: '8431', setup: null, charge: null },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', setup: declined, charge: declined },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    setup: insufficientFunds,
    charge: insufficientFunds,
  },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', setup: null, charge: declined },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', setup: null, charge: null, authenticate: true },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', setup: null, charge: null, authenticate: true },
});

/** Stripe's test cards expire in the future; ours in December of a fixed far year. */
export const TEST_CARD_EXPIRY = { expMonth: 12, expYear: 2034 } as const;

/** A test method by its name, or by one of Stripe's test card numbers (test-card-numbers.ts). */
export function testCard(name: string): TestCard | null {
  const method = testMethodName(name);
  return Object.hasOwn(TEST_CARDS, method) ? TEST_CARDS[method] : null;
}

/** The message of the 422 for a name that is not one of the above. */
export function unknownTestCardMessage(): string {
  return `Unknown test payment method. Use one of: ${Object.keys(TEST_CARDS).join(', ')}, or one of Stripe's test card numbers (4242 4242 4242 4242).`;
}
