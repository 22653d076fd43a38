import { html, type SafeHtml } from '../../web-kit/html.js';
import type { StripeJsSettings } from '../../web-kit/stripe-js.js';
import { CARD_ASSETS } from './card-entry.router.js';

/** Stripe Elements' mode: a payment now, a subscription's first payment, or a card saved for later. */
export type ElementsMode = 'payment' | 'subscription' | 'setup';

export interface StripeCardFieldOptions {
  stripe: StripeJsSettings;
  mode: ElementsMode;
  /** Minor units; Elements shows and checks it (ignored in setup mode). */
  amount: number;
  currency: string;
  /** `off_session`: the card is kept for renewals (a subscription, a saved method). */
  setupFutureUsage?: 'off_session' | null;
}

/**
 * The card field of a card page in production: Stripe's Payment Element is mounted here by
 * `card-form.js`, which then posts the form with a fresh confirmation token in `confirmation_token_id`.
 * Without JavaScript the page says so instead of asking the buyer for anything.
 */
export function stripeCardField(options: StripeCardFieldOptions): SafeHtml {
  return html`<div class="field" role="group" aria-labelledby="card-label" data-stripe-card data-publishable-key="${options.stripe.publishableKey}" data-mode="${options.mode}" data-amount="${String(options.amount)}" data-currency="${options.currency}" data-setup-future-usage="${options.setupFutureUsage ?? ''}" data-unavailable="The card field could not be loaded. Reload the page to try again." data-failed="The card could not be checked. Try again.">
<span id="card-label" class="label"><strong>Card</strong></span>
<div class="payment-element" data-payment-element></div>
<noscript><div class="warning" role="note">Card entry needs JavaScript: turn it on for this page to pay by card.</div></noscript>
<input type="hidden" name="confirmation_token_id" value="">
</div>`;
}

/** The scripts a page with `stripeCardField` loads: Stripe.js, then ours. */
export const cardFormScripts = (stripe: StripeJsSettings): string[] => [stripe.stripeJsUrl, CARD_ASSETS.cardForm];

/** The scripts of the next-action page. */
export const nextActionScripts = (stripe: StripeJsSettings): string[] => [stripe.stripeJsUrl, CARD_ASSETS.nextAction];

/**
 * Elements' options for a checkout, as Polar's checkout chooses them: a subscription's first payment,
 * a one-time payment, or (a trial, a free first period) a card saved for later.
 */
export function elementsModeOf(
  checkout: Record<string, any>,
): Pick<StripeCardFieldOptions, 'mode' | 'setupFutureUsage'> {
  const total = Number(checkout.total_amount ?? 0);
  if (checkout.is_payment_setup_required && checkout.is_payment_required && total > 0)
    return { mode: 'subscription', setupFutureUsage: 'off_session' };
  if (checkout.is_payment_required && total > 0) return { mode: 'payment', setupFutureUsage: null };
  return { mode: 'setup', setupFutureUsage: 'off_session' };
}
