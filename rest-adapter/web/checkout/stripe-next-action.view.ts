import type { Response } from 'express';
import { html, rawHtml } from '../../web-kit/html.js';
import { renderPage } from '../../web-kit/layout.js';

/**
 * Production's 3-D Secure step (a minimal version; the card page's own replaces it): loads Stripe.js
 * from its configured URL, calls `stripe.handleNextAction({clientSecret})`, then returns to `returnTo`,
 * where the checkout's state (settled by Stripe's webhook) says what happened.
 */
export function renderStripeNextAction(
  res: Response,
  options: { publishableKey: string | null; scriptUrl: string; clientSecret: string; returnTo: string },
): void {
  const origin = new URL(options.scriptUrl).origin;
  const config = JSON.stringify({ key: options.publishableKey, secret: options.clientSecret, back: options.returnTo });
  res.status(200);
  res.set({
    'Content-Security-Policy': `default-src 'none'; script-src ${origin} 'unsafe-inline'; frame-src ${origin} https://hooks.stripe.com; connect-src ${origin} https://api.stripe.com; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
  res.type('html').send(
    renderPage({
      title: 'Authenticate your payment',
      narrow: true,
      body: html`<h1>Authenticate your payment</h1><div class="card"><p>Your bank asks you to confirm this payment.</p></div>
<script src="${options.scriptUrl}"></script>
<script>(function(){var c=${rawHtml(config.replace(/</g, '\\u003c'))};var s=Stripe(c.key);s.handleNextAction({clientSecret:c.secret}).then(function(){location.href=c.back;});})();</script>`,
    }),
  );
}
