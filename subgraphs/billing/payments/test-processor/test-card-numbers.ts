/**
 * Stripe's test card numbers (docs.stripe.com/testing) and the test payment method each stands for,
 * so a buyer who types `4242 4242 4242 4242` into the sandbox pays as with `pm_card_visa`. The one
 * table of them: the test processor resolves a number to its method name before anything else.
 */
export const TEST_CARD_NUMBERS: Readonly<Record<string, string>> = Object.freeze({
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '378282246310005': 'pm_card_amex',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
  '4000000000000341': 'pm_card_chargeCustomerFail',
  '4000002760003184': 'pm_card_authenticationRequired',
  '4000000000003220': 'pm_card_threeDSecure2Required',
});

/** The test method a card number stands for (spaces and dashes ignored); anything else as it was given. */
export function testMethodName(value: string): string {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) && Object.hasOwn(TEST_CARD_NUMBERS, digits) ? TEST_CARD_NUMBERS[digits] : value;
}
