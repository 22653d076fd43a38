import type { Response } from 'express';
import type { StripeJsSettings } from '../../web-kit/stripe-js.js';
import type { CardEntry } from './checkout.views.js';
import { paymentChallengeUrl } from './payment-challenge.routes.js';
import { sendStripeNextAction } from './stripe-next-action.view.js';

/** A payment or a saved card the bank wants the customer to confirm (3-D Secure), and where to go after. */
export interface BankAction {
  /** The intent's client secret (`intent_client_secret`, or the portal API's `client_secret`). */
  clientSecret: string;
  /** A page of ours that shows the outcome the server knows. */
  returnUrl: string;
  /** Where Stripe.js sends the customer when the bank refused (the sandbox's page adds `authentication=failed` itself). */
  failureUrl: string;
  /** The header's name (the seller). */
  brand?: string;
}

/**
 * Sends the customer to the bank's step, the one way every card page does it (docs/web-pages.md): the
 * sandbox's simulated challenge page, or in production the next-action page that runs Stripe.js's
 * `handleNextAction`. False when this environment has neither (no processor): the caller goes on.
 */
export function sendToBankAction(
  res: Response,
  entry: { cardEntry: CardEntry; stripe?: StripeJsSettings | null },
  action: BankAction,
): boolean {
  if (entry.cardEntry === 'test') {
    res.redirect(303, paymentChallengeUrl(action.clientSecret, action.returnUrl));
    return true;
  }
  if (entry.cardEntry !== 'stripe' || !entry.stripe) return false;
  sendStripeNextAction(res, { ...entry.stripe, ...action });
  return true;
}
