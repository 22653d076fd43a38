import type { PaymentFailure } from '../payment-processor.js';

/**
 * The built-in test processor's payment methods: Stripe's test PaymentMethod names
 * (docs.stripe.com/testing), with the brand and last four digits of the card each stands for, so a
 * client written against Stripe's test mode works unchanged in our sandbox.
 *
 * `setup` is what saving the method does, `charge` what charging it does. Saving runs the same card
 * check as a charge for the declined cards (a SetupIntent authorizes the card), so only
 * `pm_card_chargeCustomerFail` can be saved and then fail every charge — the card dunning tests use.
 */
export interface TestCard {
  brand: string;
  last4: string;
  setup: PaymentFailure | null;
  charge: PaymentFailure | null;
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
});

/** Stripe's test cards expire in the future; ours in December of a fixed far year. */
export const TEST_CARD_EXPIRY = { expMonth: 12, expYear: 2034 } as const;

export function testCard(name: string): TestCard | null {
  return Object.hasOwn(TEST_CARDS, name) ? TEST_CARDS[name] : null;
}

/** The message of the 422 for a name that is not one of the above. */
export function unknownTestCardMessage(): string {
  return `Unknown test payment method. Use one of: ${Object.keys(TEST_CARDS).join(', ')}.`;
}
