import type { Json } from './fake-stripe-wire.js';

/** Stripe's test payment methods that the fake knows, by their test names (`pm_card_visa`, …). */
export interface Card {
  brand: string;
  last4: string;
  /** Declined when saved (SetupIntent) and when charged. */
  declined: { decline_code: string; message: string } | null;
  /** Saved fine, declined on every charge (pm_card_chargeCustomerFail). */
  chargeFails: boolean;
}

export const generic = { decline_code: 'generic_decline', message: 'Your card was declined.' };
export const CARDS: Record<string, Card> = {
  pm_card_visa: { brand: 'visa', last4: '4242', declined: null, chargeFails: false },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', declined: null, chargeFails: false },
  pm_card_amex: { brand: 'amex', last4: '8431', declined: null, chargeFails: false },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', declined: generic, chargeFails: false },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    declined: { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    chargeFails: false,
  },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', declined: null, chargeFails: true },
};

/** Stripe's `card_error` body for a decline. */
export function cardError(decline: { decline_code: string; message: string }): Json {
  return {
    type: 'card_error',
    code: 'card_declined',
    decline_code: decline.decline_code,
    message: decline.message,
    doc_url: 'https://stripe.com/docs/error-codes/card-declined',
  };
}
