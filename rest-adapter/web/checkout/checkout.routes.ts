import express, { type Request, type Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import type { Logger } from '../../../kit/logger.js';
import type { GatewayClient } from '../../upstream/gateway-client.js';
import type { OperationDocuments } from '../../v1/operations.js';
import { checkoutRoutes } from '../../v1/routes/checkouts.routes.js';
import { type Route, shapeResult } from '../../v1/routes/route.js';
import { parseOrThrow } from '../../v1/validation.js';
import { runAnonymous } from './anonymous-operation.js';
import { FORM_EXPIRED, issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { renderPage, sendPage } from '../../web-kit/layout.js';
import { type StripeJsSettings, stripeJsCsp } from '../../web-kit/stripe-js.js';
import { cardFormScripts } from '../card-entry/card-entry.view.js';
import { bodyOf, customFieldErrorsOf, explain, field, formOf, OperationFailed } from './checkout.form.js';
import { sendToBankAction } from './bank-action.js';
import {
  CANNOT_TAKE_PAYMENTS,
  type CardEntry,
  type CheckoutForm,
  checkoutBody,
  checkoutMessageBody,
  checkoutSucceededBody,
  type PublicCheckout,
} from './checkout.views.js';

export interface CheckoutPageDependencies {
  gateway: GatewayClient;
  operations: OperationDocuments;
  logger: Logger;
  cardEntry: CardEntry;
  /** With `cardEntry: 'stripe'`: the publishable key and Stripe.js URL; unset, the page cannot take a card. */
  stripe?: StripeJsSettings | null;
}

/** What the form says after a bank refused the action it asked for (`?authentication=failed`). */
const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

const routeOf = (operationId: string): Route => {
  const route = checkoutRoutes.find(r => r.operationId === operationId);
  if (!route) throw new Error(`No route ${operationId}`);
  return route;
};

/**
 * The hosted checkout (a checkout's `url`, `/checkout/{client_secret}`) and a checkout link's public
 * redirect. Server-rendered, no scripts: one form posts the buyer's details and card, the answer is a
 * redirect (the confirmation page, or the page again after applying a code) or the form with the
 * error. It runs the client endpoints' own route objects (their body schemas, GraphQL operations and
 * wire shapes), as an anonymous caller holding the client secret, so the page and
 * `/v1/checkouts/client/…` cannot disagree.
 */
export function createCheckoutRouter(deps: CheckoutPageDependencies): express.Router {
  const pages = new CheckoutPages(deps);
  const router = express.Router();
  router.get('/checkout/:clientSecret', pages.page(pages.showCheckout));
  router.post('/checkout/:clientSecret', pages.page(pages.submitCheckout));
  router.get('/checkout/:clientSecret/confirmation', pages.page(pages.showConfirmation));
  router.get('/v1/checkout-links/:clientSecret/redirect', pages.page(pages.openCheckoutLink));
  return router;
}

const secretOf = (req: Request) => req.params.clientSecret as string;

/** The checkout pages' handlers, over the client endpoints' routes. */
class CheckoutPages {
  constructor(private readonly deps: CheckoutPageDependencies) {}

  /** One of the client endpoints, by its route: body validated by the route's schema, result as its wire body. */
  private async client(
    operationId: string,
    clientSecret: string,
    req: Request,
    body?: unknown,
  ): Promise<PublicCheckout> {
    const route = routeOf(operationId);
    const params = { client_secret: clientSecret };
    const parsed = route.body ? parseOrThrow(route.body, 'body', body ?? {}) : undefined;
    const data = await runAnonymous(
      this.deps,
      route.operation,
      route.variables({ params, query: {}, body: parsed }),
      req,
    );
    return shapeResult(route, data) as PublicCheckout;
  }

  /** An Express handler for `handler`: whatever it throws becomes a page. */
  page(handler: (req: Request, res: Response) => Promise<void>) {
    return async (req: Request, res: Response) => {
      try {
        await handler(req, res);
      } catch (error) {
        this.sendFailure(req, res, error);
      }
    };
  }

  private message(res: Response, status: number, title: string, text: string, checkout?: PublicCheckout | null) {
    const link = checkout?.return_url ? { href: checkout.return_url as string, text: '← Back' } : undefined;
    sendPage(
      res,
      renderPage({
        title,
        narrow: true,
        brand: checkout?.organization?.name,
        body: checkoutMessageBody(title, text, link),
      }),
      status,
    );
  }

  private sendFailure(req: Request, res: Response, error: unknown) {
    const status = error instanceof OperationFailed || error instanceof DomainError ? error.status : 500;
    if (status === 404) return this.message(res, 404, 'Checkout not found', 'This checkout does not exist.');
    if (status === 410)
      return this.message(
        res,
        410,
        'Checkout expired',
        'This checkout has expired. Start again from the seller’s site.',
      );
    if (status < 500) return this.message(res, 400, 'Something is wrong with the request', (error as Error).message);
    this.deps.logger.error({ err: error, requestId: req.requestId }, 'checkout page failed');
    this.message(res, 500, 'Something went wrong', `The error was logged with request id ${req.requestId}.`);
  }

  /** The open checkout's form (after a refused post: with what was typed and the error). */
  private showForm(
    req: Request,
    res: Response,
    checkout: PublicCheckout,
    status = 200,
    form?: CheckoutForm,
    error?: string,
    fieldErrors?: Record<string, string>,
  ) {
    const { cardEntry } = this.deps;
    // Stripe.js only where a card is typed: the CSP of every other page still allows no script.
    const stripe = cardEntry === 'stripe' && checkout.is_payment_form_required ? this.deps.stripe : null;
    sendPage(
      res,
      renderPage({
        title: `Checkout · ${checkout.product?.name ?? ''}`,
        narrow: true,
        brand: checkout.organization?.name,
        scripts: stripe ? cardFormScripts(stripe) : undefined,
        body: checkoutBody({
          checkout,
          csrfToken: issueCsrfToken(req, res),
          cardEntry,
          stripe,
          form,
          error,
          fieldErrors,
        }),
      }),
      status,
      stripe ? stripeJsCsp(stripe.stripeJsUrl) : undefined,
    );
  }

  /** What every state but `open` shows; false when the checkout is open (the caller shows the form). */
  private notOpen(req: Request, res: Response, checkout: PublicCheckout): boolean {
    switch (checkout.status) {
      case 'open':
        return false;
      case 'expired':
        this.message(
          res,
          410,
          'Checkout expired',
          'This checkout has expired. Start again from the seller’s site.',
          checkout,
        );
        return true;
      case 'failed':
        this.message(
          res,
          200,
          'Payment failed',
          'This checkout could not be completed. Start again from the seller’s site.',
          checkout,
        );
        return true;
      default:
        res.redirect(303, `/checkout/${encodeURIComponent(secretOf(req))}/confirmation`);
        return true;
    }
  }

  /** The open checkout's form, or what its state shows instead. */
  readonly showCheckout = async (req: Request, res: Response): Promise<void> => {
    const checkout = await this.client('checkouts:client_get', secretOf(req), req);
    // Back from a 3-D Secure challenge the buyer failed: the checkout is open again, the reason in the box.
    const failed = authenticationFailed(req) ? AUTHENTICATION_FAILED : undefined;
    if (!this.notOpen(req, res, checkout)) this.showForm(req, res, checkout, 200, undefined, failed);
  };

  /** The form posted: pay (confirm) or apply a discount code (update), then redirect or show the error. */
  readonly submitCheckout = async (req: Request, res: Response): Promise<void> => {
    const secret = secretOf(req);
    const form = formOf(req);
    const again = async (status: number, error: string, fieldErrors?: Record<string, string>) => {
      const checkout = await this.client('checkouts:client_get', secret, req);
      if (!this.notOpen(req, res, checkout)) this.showForm(req, res, checkout, status, form, error, fieldErrors);
    };
    if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
    const pay = field(req, 'action') !== 'update';
    const body = bodyOf(form, pay ? field(req, 'confirmation_token_id').trim() : null);
    let answer: PublicCheckout;
    try {
      answer = await this.client(pay ? 'checkouts:client_confirm' : 'checkouts:client_update', secret, req, body);
    } catch (error) {
      const refused = error instanceof OperationFailed || error instanceof DomainError ? error : null;
      // A paid checkout this page cannot take a card for: the buyer learns that, not the missing settings.
      const cardless = this.deps.cardEntry === 'none' || (this.deps.cardEntry === 'stripe' && !this.deps.stripe);
      if (refused && pay && cardless) return again(400, CANNOT_TAKE_PAYMENTS);
      if (refused && (refused.status === 400 || refused.status === 422))
        return again(refused.status, explain(refused), customFieldErrorsOf(refused));
      if (refused?.status === 403) return void res.redirect(303, `/checkout/${encodeURIComponent(secret)}`);
      throw error;
    }
    if (pay && answer.payment_processor_metadata?.intent_status === 'requires_action') {
      // 3-D Secure: the sandbox's simulated bank page, or Stripe.js's, then back to the confirmation page,
      // which waits for the processor's word (Stripe's webhook) and then reaches the success URL, or
      // shows the form again with the bank's refusal.
      const confirmation = `/checkout/${encodeURIComponent(secret)}/confirmation`;
      const action = {
        clientSecret: String(answer.payment_processor_metadata.intent_client_secret),
        returnUrl: confirmation,
        failureUrl: `${confirmation}?authentication=failed`,
        brand: answer.organization?.name,
      };
      if (sendToBankAction(res, this.deps, action)) return;
    }
    res.redirect(
      303,
      pay ? `/checkout/${encodeURIComponent(secret)}/confirmation` : `/checkout/${encodeURIComponent(secret)}`,
    );
  };

  // The success page Polar's `success_url` defaults to: waits (reloading itself) while the fulfilment
  // runs, then shows the purchase, or sends the buyer to the merchant's `success_url`.
  readonly showConfirmation = async (req: Request, res: Response): Promise<void> => {
    const checkout = await this.client('checkouts:client_get', secretOf(req), req);
    if (checkout.status === 'open') {
      const failed = authenticationFailed(req) ? '?authentication=failed' : '';
      return void res.redirect(303, `/checkout/${encodeURIComponent(secretOf(req))}${failed}`);
    }
    if (checkout.status === 'confirmed') {
      sendPage(
        res,
        renderPage({
          title: 'Processing your payment',
          narrow: true,
          brand: checkout.organization?.name,
          refreshSeconds: 1,
          body: checkoutMessageBody(
            'Processing…',
            'We are waiting for the payment to be confirmed, then completing your order. This page refreshes by itself.',
          ),
        }),
      );
      return;
    }
    if (checkout.status !== 'succeeded') return void this.notOpen(req, res, checkout);
    const ownPage = `${checkout.url}/confirmation`;
    if (checkout.success_url && checkout.success_url !== ownPage)
      return void res.redirect(303, String(checkout.success_url).replaceAll('{CHECKOUT_ID}', checkout.id));
    sendPage(
      res,
      renderPage({
        title: 'Thank you',
        narrow: true,
        brand: checkout.organization?.name,
        body: checkoutSucceededBody(checkout),
      }),
    );
  };

  // A checkout link's public URL (Polar: GET /v1/checkout-links/{client_secret}/redirect): a fresh
  // checkout each time, prefilled from the query, then 307 to its page.
  readonly openCheckoutLink = async (req: Request, res: Response): Promise<void> => {
    const query = new URL(req.originalUrl, 'http://local').searchParams;
    const text = (name: string) => query.get(name)?.trim() || null;
    const metadata = Object.fromEntries(
      ['reference_id', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content']
        .map(key => [key, text(key)?.slice(0, 500)] as const)
        .filter(([, value]) => value),
    );
    const amount = text('amount');
    const productId = text('product_id');
    const input = {
      productId: productId && /^[0-9a-f-]{36}$/i.test(productId) ? productId : null,
      amount: amount && /^\d{1,15}$/.test(amount) ? Number(amount) : null,
      customerEmail: text('customer_email')?.slice(0, 320) ?? null,
      customerName: text('customer_name')?.slice(0, 256) ?? null,
      discountCode: text('discount_code')?.slice(0, 256) ?? null,
      locale: text('locale')?.slice(0, 16) ?? null,
      metadata: Object.keys(metadata).length ? metadata : null,
    };
    const data = await runAnonymous(this.deps, 'CheckoutLinksOpen', { clientSecret: secretOf(req), input }, req);
    res.redirect(307, data.openCheckoutLink.url);
  };
}

/** Back from a failed 3-D Secure challenge (`?authentication=failed`: payment-challenge.routes.ts, next-action page). */
function authenticationFailed(req: Request): boolean {
  return new URL(req.originalUrl, 'http://local').searchParams.get('authentication') === 'failed';
}
