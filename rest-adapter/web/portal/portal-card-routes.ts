import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import type { StripeJsSettings } from '../../web-kit/stripe-js.js';
import { type ElementsMode, stripeCardField } from '../card-entry/card-entry.view.js';
import { CANNOT_TAKE_PAYMENTS, type CardEntry, TEST_PAYMENT_METHODS } from '../checkout/checkout.views.js';
import { sendToBankAction } from '../checkout/bank-action.js';
import { field, FORM_EXPIRED, message, messageOf, queryParam } from './portal-http.js';
import type { PortalPages } from './portal-pages.js';
import { formatAmount } from './portal-format.js';
import type { PortalContext } from './portal-views.js';

const ADD = 'customer_portal:customers:add_payment_method';
const CONFIRM_ADD = 'customer_portal:customers:confirm_payment_method';
const ORDER = 'customer_portal:orders:get';
const PAY = 'customer_portal:orders:confirm_retry_payment';
const LIST_ORDERS = 'customer_portal:orders:list';

export interface CardPageOptions {
  /** The environment's public URL (the API's `return_url` is absolute). */
  publicUrl: string;
  cardEntry: CardEntry;
  stripe: StripeJsSettings | null;
}

/** What a card form needs: Elements' mode and amount (production) or the sandbox's test method field. */
interface CardForm {
  ctx: PortalContext;
  action: string;
  mode: ElementsMode;
  amount: number;
  currency: string;
  submit: string;
  error?: string | null;
  /** Extra buttons (paying with the saved card), posted without a card. */
  extra?: SafeHtml | null;
}

/**
 * The portal's two card pages (docs/web-pages.md), the portal's side of Polar's payment-method form and
 * confirm-retry-payment: `/payment-methods/new` saves a card (Elements in setup mode; the API's add
 * payment method), `/orders/<id>/pay` pays a pending renewal order (Elements in payment mode, or the
 * saved card; the API's confirm-payment). A bank's action (3-D Secure) is completed on the next-action
 * page, then the customer is back on the list, which shows what the API knows.
 */
export function cardRoutes(portal: express.Router, pages: PortalPages, options: CardPageOptions): void {
  const card = new CardPages(pages, options);
  portal.get('/payment-methods/new', pages.page(card.addForm));
  portal.post('/payment-methods/new', pages.page(card.submitAdd));
  portal.get('/payment-methods/confirm', pages.page(card.confirmAdd));
  portal.get('/orders/:id/pay', pages.page(card.payForm));
  portal.post('/orders/:id/pay', pages.page(card.submitPay));
}

class CardPages {
  private readonly stripe: StripeJsSettings | null;

  constructor(
    private readonly pages: PortalPages,
    private readonly options: CardPageOptions,
  ) {
    this.stripe = options.cardEntry === 'stripe' ? options.stripe : null;
  }

  private cardField(f: CardForm): SafeHtml {
    const { stripe } = this;
    if (stripe)
      return stripeCardField({
        stripe,
        mode: f.mode,
        amount: f.amount,
        currency: f.currency,
        setupFutureUsage: 'off_session',
      });
    if (this.options.cardEntry === 'test')
      return html`<div class="field"><label for="card">Card (test payment method)</label><input id="card" type="text" name="confirmation_token_id" required list="test-cards" placeholder="pm_card_visa" autocomplete="off"><datalist id="test-cards">${TEST_PAYMENT_METHODS.map(m => html`<option value="${m}"></option>`)}</datalist></div>`;
    return html`<div class="warning" role="note">${CANNOT_TAKE_PAYMENTS}</div>`;
  }

  private form(f: CardForm, title: string, current: string, status = 200): Promise<void> {
    const canTakeCard = this.options.cardEntry === 'test' || !!this.stripe;
    const submit = canTakeCard ? html`<button type="submit">${f.submit}</button>` : null;
    return this.pages.show(
      f.ctx,
      title,
      html`<h1>${title}</h1><div class="card">${errorBox(f.error)}<form class="stack" method="post" action="${f.action}">${csrfField(f.ctx.csrfToken)}${this.cardField(f)}<div class="actions">${submit}${f.extra ?? null}</div></form></div>`,
      current,
      status,
      this.stripe,
    );
  }

  /** The API's answer to a card: on to `done`, the bank's page, or the form again with the refusal. */
  private async outcome(
    req: Request,
    res: Response,
    run: () => Promise<Record<string, any>>,
    next: { done: string; failed: string; afterAction?: (clientSecret: string) => string },
    again: (error: string, status: number) => Promise<void>,
  ): Promise<void> {
    const ctx = this.pages.contextOf(req, res);
    if (!verifyCsrf(req)) return message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
    let answer: Record<string, any>;
    try {
      answer = await run();
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500 || error.status === 401 || error.status === 404)
        throw error;
      return again(messageOf(error), 400);
    }
    // 3-D Secure: the sandbox's simulated bank page returns to `done` with `authentication=…` (the
    // notice then reads the outcome); production goes through Stripe.js's next action.
    const secret = answer.status === 'requires_action' ? String(answer.client_secret ?? '') : '';
    const back = secret && next.afterAction ? next.afterAction(secret) : next.done;
    const action = { clientSecret: secret, returnUrl: back, failureUrl: next.failed, brand: ctx.organization.name };
    if (secret && sendToBankAction(res, { cardEntry: this.options.cardEntry, stripe: this.stripe }, action)) return;
    if (answer.status === 'failed') return again(answer.error ?? 'The payment failed.', 400);
    res.redirect(303, next.done);
  }

  readonly addForm = async (req: Request, res: Response, error?: string, status?: number): Promise<void> => {
    const ctx = this.pages.contextOf(req, res);
    // Elements wants a currency even to save a card: the one the customer last paid in.
    const last = await ctx.call(LIST_ORDERS, { query: { limit: '1' } }).catch(() => null);
    const currency = String(last?.items?.[0]?.currency ?? 'usd');
    const f = { ctx, action: `${ctx.base}/payment-methods/new`, mode: 'setup' as const, amount: 0, currency };
    return this.form({ ...f, submit: 'Save card', error }, 'Add a payment method', 'payment-methods', status);
  };

  readonly submitAdd = async (req: Request, res: Response): Promise<void> => {
    const ctx = this.pages.contextOf(req, res);
    const done = `${ctx.base}/payment-methods?done=card`;
    const body = {
      confirmation_token_id: field(req, 'confirmation_token_id'),
      set_default: true,
      return_url: new URL(done, this.options.publicUrl).href,
    };
    const next = {
      done,
      failed: `${ctx.base}/payment-methods?done=card-failed`,
      // A setup that waited for the bank is kept by the API's confirm, once the customer authenticated.
      afterAction: (clientSecret: string) =>
        `${ctx.base}/payment-methods/confirm?setup_intent=${encodeURIComponent(setupIntentOf(clientSecret))}`,
    };
    await this.outcome(
      req,
      res,
      () => ctx.call(ADD, { body }),
      next,
      (e, s) => this.addForm(req, res, e, s),
    );
  };

  /**
   * Back from the bank's page (the sandbox's, or Stripe.js's next action) after saving a card: the API's
   * confirm keeps it (Polar's payment-methods confirm), then the list tells the customer what happened.
   */
  readonly confirmAdd = async (req: Request, res: Response): Promise<void> => {
    const ctx = this.pages.contextOf(req, res);
    const failed = `${ctx.base}/payment-methods?done=card-failed`;
    const setupIntentId = queryParam(req, 'setup_intent') ?? '';
    if (!setupIntentId || queryParam(req, 'authentication') === 'failed') return res.redirect(303, failed);
    const body = { setup_intent_id: setupIntentId, set_default: true };
    const answer = await ctx.call(CONFIRM_ADD, { body }).catch((error: unknown) => {
      if (error instanceof DomainError && error.status < 500 && error.status !== 401) return null;
      throw error;
    });
    res.redirect(303, answer?.status === 'succeeded' ? `${ctx.base}/payment-methods?done=card` : failed);
  };

  readonly payForm = async (req: Request, res: Response, error?: string, status?: number): Promise<void> => {
    const ctx = this.pages.contextOf(req, res);
    const order = await ctx.call(ORDER, { params: { id: String(req.params.id) } });
    if (order.status !== 'pending')
      return message(res, ctx.organization, 'Nothing to pay', 'This order does not wait for a payment.', 409);
    const f = { ctx, action: `${ctx.base}/orders/${order.id}/pay`, mode: 'payment' as const };
    const total = formatAmount(order.total_amount, order.currency);
    const extra = html`<button type="submit" name="saved" value="1" class="secondary" data-skip-card formnovalidate>Pay with my saved card</button>`;
    const form = { ...f, amount: order.total_amount, currency: order.currency, submit: `Pay ${total}`, error, extra };
    return this.form(form, `Pay ${total}`, 'orders', status);
  };

  readonly submitPay = async (req: Request, res: Response): Promise<void> => {
    const ctx = this.pages.contextOf(req, res);
    const token = field(req, 'saved') ? '' : field(req, 'confirmation_token_id').trim();
    const body = token ? { confirmation_token_id: token } : {};
    const run = () => ctx.call(PAY, { params: { id: String(req.params.id) }, body });
    const next = { done: `${ctx.base}/orders?done=paid`, failed: `${ctx.base}/orders?done=pay-failed` };
    await this.outcome(req, res, run, next, (e, s) => this.payForm(req, res, e, s));
  };
}

/** A setup's id from its client secret (`seti_…_secret_…` at Stripe, `<id>_secret_…` in the sandbox). */
function setupIntentOf(clientSecret: string): string {
  const at = clientSecret.indexOf('_secret_');
  return at > 0 ? clientSecret.slice(0, at) : clientSecret;
}
