import type { Response } from 'express';
import { html } from '../../web-kit/html.js';
import { renderPage, sendPage } from '../../web-kit/layout.js';
import { type StripeJsSettings, stripeJsCsp } from '../../web-kit/stripe-js.js';
import { nextActionScripts } from '../card-entry/card-entry.view.js';

export interface StripeNextActionOptions extends StripeJsSettings {
  /** The PaymentIntent's or SetupIntent's client secret (`payment_processor_metadata.intent_client_secret`). */
  clientSecret: string;
  /** Where the buyer goes once Stripe.js is done: a page that shows the outcome the server knows. */
  returnUrl: string;
  /** Where the buyer goes when the bank refused. */
  failureUrl: string;
  /** The header's name (the seller). */
  brand?: string;
}

/**
 * The page shown when a confirm answered `intent_status: "requires_action"` (3-D Secure, as Polar's
 * checkout handles it): Stripe.js `handleNextAction` opens the bank's challenge, then the buyer is sent
 * on (docs/web-pages.md). Without JavaScript it says what is missing. Send it with
 * `sendStripeNextAction`, whose CSP allows Stripe.js.
 */
function renderStripeNextAction(options: StripeNextActionOptions): string {
  return renderPage({
    title: 'Confirm your payment',
    narrow: true,
    brand: options.brand,
    scripts: nextActionScripts(options),
    body: html`<h1>Confirm your payment</h1>
<div class="card" data-next-action data-publishable-key="${options.publishableKey}" data-client-secret="${options.clientSecret}" data-return-url="${options.returnUrl}" data-failure-url="${options.failureUrl}" data-unavailable="Your bank's confirmation could not be opened. Nothing was charged; go back and try again.">
<p>Your bank asks you to confirm this payment. Follow the steps in the window that opens.</p>
<div class="error" role="alert" hidden></div>
<p data-continue hidden><a href="${options.returnUrl}">Back to the checkout</a></p>
<noscript><div class="warning" role="note">Confirming the payment with your bank needs JavaScript: turn it on for this page. <a href="${options.returnUrl}">Back to the checkout</a></div></noscript>
</div>`,
  });
}

/** Sends the next-action page with the CSP Stripe.js needs (and nothing more). */
export function sendStripeNextAction(res: Response, options: StripeNextActionOptions): void {
  sendPage(res, renderStripeNextAction(options), 200, stripeJsCsp(options.stripeJsUrl));
}
