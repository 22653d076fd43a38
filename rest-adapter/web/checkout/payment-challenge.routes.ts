import express, { type Request, type Response } from 'express';
import { formatMoney } from '../../../kit/money/format.js';
import type { Logger } from '../../../kit/logger.js';
import { FORM_EXPIRED, issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { html } from '../../web-kit/html.js';
import { csrfField, errorBox, renderPage, sendPage } from '../../web-kit/layout.js';
import { type AnonymousGateway, runAnonymous } from './anonymous-operation.js';
import { OperationFailed } from './checkout.form.js';
import { checkoutMessageBody } from './checkout.views.js';

export interface PaymentChallengeDependencies extends AnonymousGateway {
  logger: Logger;
}

export const PAYMENT_CHALLENGE_PATH = '/sandbox/payment-challenge';

/** The challenge page's address for a client secret, returning to `returnTo` (a path of ours) once answered. */
export function paymentChallengeUrl(clientSecret: string, returnTo: string): string {
  return `${PAYMENT_CHALLENGE_PATH}?${new URLSearchParams({ client_secret: clientSecret, return_to: returnTo })}`;
}

/**
 * The sandbox's simulated bank page for 3-D Secure (docs/selling.md): the amount and the card, and two
 * buttons, "Complete authentication" and "Fail authentication". The answer settles the test payment
 * through billing (`settleSandboxPaymentChallenge`, applied once) and goes back to `return_to` with
 * `authentication=succeeded|failed`; only our own checkout and portal paths are accepted there. In
 * production billing answers 404, and so does this page.
 */
export function createPaymentChallengeRouter(deps: PaymentChallengeDependencies): express.Router {
  const router = express.Router();
  router.get(PAYMENT_CHALLENGE_PATH, async (req, res) => {
    try {
      await show(deps, req, res);
    } catch (error) {
      deps.logger.error({ err: error, requestId: req.requestId }, 'payment challenge page failed');
      res.sendStatus(500);
    }
  });
  router.post(PAYMENT_CHALLENGE_PATH, async (req, res) => {
    try {
      if (!verifyCsrf(req)) return void (await show(deps, req, res, FORM_EXPIRED));
      const { secret, returnTo } = input(req);
      const complete = (req.body as Record<string, unknown>).answer === 'complete';
      const settled = await refusedAsNull(
        runAnonymous(deps, 'SandboxPaymentChallengeSettle', { clientSecret: secret, complete }, req),
      );
      if (!settled) return notFound(res);
      const outcome = settled.settleSandboxPaymentChallenge.status === 'succeeded' ? 'succeeded' : 'failed';
      if (!returnTo) return void (await show(deps, req, res));
      res.redirect(303, `${returnTo}${returnTo.includes('?') ? '&' : '?'}authentication=${outcome}`);
    } catch (error) {
      deps.logger.error({ err: error, requestId: req.requestId }, 'payment challenge failed');
      res.sendStatus(500);
    }
  });
  return router;
}

/** The operation's data, or null when billing refused it (an unknown secret, production: 404). */
async function refusedAsNull<T>(running: Promise<T>): Promise<T | null> {
  try {
    return await running;
  } catch (error) {
    if (error instanceof OperationFailed) return null;
    throw error;
  }
}

const input = (req: Request) => {
  const query = new URL(req.originalUrl, 'http://local').searchParams;
  const secret = String(
    (req.body as Record<string, unknown> | undefined)?.client_secret ?? query.get('client_secret') ?? '',
  );
  const back = String((req.body as Record<string, unknown> | undefined)?.return_to ?? query.get('return_to') ?? '');
  return { secret, returnTo: /^\/(checkout|portal)\/[\w./-]*(\?[\w=&-]*)?$/.test(back) ? back : null };
};
const notFound = (res: Response) =>
  sendPage(
    res,
    renderPage({
      title: 'Not found',
      narrow: true,
      body: checkoutMessageBody('Not found', 'There is no payment to authenticate here.'),
    }),
    404,
  );

const show = async (deps: PaymentChallengeDependencies, req: Request, res: Response, error?: string) => {
  const { secret, returnTo } = input(req);
  const found = secret
    ? await refusedAsNull(runAnonymous(deps, 'SandboxPaymentChallengeGet', { clientSecret: secret }, req))
    : null;
  if (!found) return notFound(res);
  const c = found.sandboxPaymentChallenge;
  const what =
    c.amount !== null && c.currency ? formatMoney(BigInt(c.amount), c.currency) : 'Saving your card for later payments';
  sendPage(
    res,
    renderPage({
      title: 'Authenticate your payment',
      narrow: true,
      body: html`<h1>Authenticate your payment</h1><div class="card" data-challenge="${c.status}">
${errorBox(error)}
<p class="notice" role="note">Test mode: this page stands in for your bank's 3-D Secure check.</p>
<p><strong data-amount="challenge">${what}</strong> · ${c.brand} •••• ${c.last4}</p>
${
  c.status === 'requires_action'
    ? html`<form class="stack" method="post" action="${PAYMENT_CHALLENGE_PATH}">${csrfField(issueCsrfToken(req, res))}
<input type="hidden" name="client_secret" value="${secret}"><input type="hidden" name="return_to" value="${returnTo ?? ''}">
<div><button type="submit" name="answer" value="complete" class="pay">Complete authentication</button>
<button type="submit" name="answer" value="fail" class="secondary">Fail authentication</button></div></form>`
    : html`<p>This payment was ${c.status === 'succeeded' ? 'authenticated' : 'not authenticated'} already.</p>`
}</div>`,
    }),
  );
};
