import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import type { HtmlValue } from '../html.js';
import { verifyCsrf } from '../csrf.js';
import type { PortalApi } from './portal-api.js';
import { cancelBody, changePlanBody, subscriptionBody, type SubscriptionActions } from './portal-subscriptions.js';
import type { PortalContext } from './portal-views.js';

type Wire = Record<string, any>;

interface Helpers {
  page: (handler: (req: Request, res: Response) => Promise<void>) => express.RequestHandler;
  contextOf(req: Request, res: Response): PortalContext;
  show(ctx: PortalContext, title: string, body: HtmlValue, current: string | null, status?: number): Promise<void>;
  message(
    res: Response,
    organization: PortalContext['organization'],
    title: string,
    text: string,
    status: number,
  ): void;
  field(req: Request, name: string): string;
  api: PortalApi;
}

const FORM_EXPIRED = 'This form has expired or did not come from this site. Please try again.';
const LIVE = new Set(['active', 'trialing', 'past_due']);
const ANY_UUID = '00000000-0000-4000-8000-000000000000';

/** Where plan changes can be made and previewed on this server (they arrive with the plan-change API). */
function planChange(api: PortalApi): { preview: string | null; products: string | null } | null {
  if (!api.accepts('customer_portal:subscriptions:update', { product_id: ANY_UUID })) return null;
  return {
    preview: api.findByPath('post', /^\/v1\/customer-portal\/subscriptions\/\{id\}\/(change|update)-preview$/),
    products: api.has('customer_portal:organizations:get') ? 'customer_portal:organizations:get' : null,
  };
}

/** What the customer may do to this subscription: the subscription's state and the organization's settings. */
function actionsOf(ctx: PortalContext, s: Wire): SubscriptionActions {
  const settings = ctx.organization.customerPortalSettings.subscription;
  const open = LIVE.has(s.status) && !s.ended_at;
  return {
    cancel: open && !s.cancel_at_period_end && settings.cancel !== false,
    uncancel: open && !!s.cancel_at_period_end,
    changePlan: open && !s.cancel_at_period_end && settings.update_plan !== false && !!planChange(ctx.api)?.products,
  };
}

/** The subscription pages: one subscription, cancel (with its confirmation), uncancel, change plan. */
export function subscriptionRoutes(portal: express.Router, h: Helpers): void {
  const get = (ctx: PortalContext, id: string) =>
    ctx.call<Wire>('customer_portal:subscriptions:get', { params: { id } });

  async function showSubscription(ctx: PortalContext, s: Wire, status = 200, error: string | null = null) {
    const body = subscriptionBody(s, {
      base: ctx.base,
      csrfToken: ctx.csrfToken,
      actions: actionsOf(ctx, s),
      notice: ctx.notice,
      error,
    });
    await h.show(ctx, s.product?.name ?? 'Subscription', body, 'subscriptions', status);
  }

  portal.get(
    '/subscriptions/:id',
    h.page(async (req, res) => {
      const ctx = h.contextOf(req, res);
      await showSubscription(ctx, await get(ctx, String(req.params.id)));
    }),
  );

  portal.get(
    '/subscriptions/:id/cancel',
    h.page(async (req, res) => {
      const ctx = h.contextOf(req, res);
      const s = await get(ctx, String(req.params.id));
      if (!actionsOf(ctx, s).cancel) return showSubscription(ctx, s, 200);
      await h.show(
        ctx,
        'Cancel subscription',
        cancelBody(s, { base: ctx.base, csrfToken: ctx.csrfToken }),
        'subscriptions',
      );
    }),
  );

  /** A change through the API; its refusal (settings, state) is shown on the subscription's page. */
  async function change(req: Request, res: Response, body: Record<string, unknown>, done: string) {
    const ctx = h.contextOf(req, res);
    const id = String(req.params.id);
    if (!verifyCsrf(req)) return h.message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
    try {
      await ctx.call('customer_portal:subscriptions:update', { params: { id }, body });
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500 || error.status === 401) throw error;
      return showSubscription(ctx, await get(ctx, id), error.status === 403 ? 403 : 400, error.message);
    }
    res.redirect(303, `${ctx.base}/subscriptions/${id}?done=${done}`);
  }

  portal.post(
    '/subscriptions/:id/cancel',
    h.page(async (req, res) => {
      const reason = h.field(req, 'cancellation_reason');
      const comment = h.field(req, 'cancellation_comment').trim();
      await change(
        req,
        res,
        {
          cancel_at_period_end: true,
          ...(reason ? { cancellation_reason: reason } : {}),
          ...(comment ? { cancellation_comment: comment.slice(0, 1000) } : {}),
        },
        'canceled',
      );
    }),
  );

  portal.post(
    '/subscriptions/:id/uncancel',
    h.page(async (req, res) => change(req, res, { cancel_at_period_end: false }, 'uncanceled')),
  );

  // Plan changes: shown only where the organization allows them and this server's portal API makes them;
  // with a preview endpoint, the cost is shown before the customer confirms.
  async function showChangePlan(req: Request, res: Response, productId: string | null) {
    const ctx = h.contextOf(req, res);
    const s = await get(ctx, String(req.params.id));
    const endpoints = planChange(h.api);
    if (!actionsOf(ctx, s).changePlan || !endpoints?.products) return showSubscription(ctx, s);
    const data = await ctx.call('customer_portal:organizations:get', { params: { slug: ctx.organization.slug } });
    const products: Wire[] = data?.products ?? [];
    const chosen = productId ? (products.find(p => p.id === productId) ?? null) : null;
    const preview =
      chosen && endpoints.preview
        ? await ctx.call(endpoints.preview, { params: { id: s.id }, body: { product_id: chosen.id } }).catch(() => null)
        : null;
    const body = changePlanBody(s, { base: ctx.base, csrfToken: ctx.csrfToken, products, chosen, preview });
    await h.show(ctx, 'Change plan', body, 'subscriptions');
  }

  portal.get(
    '/subscriptions/:id/change-plan',
    h.page(async (req, res) => showChangePlan(req, res, null)),
  );

  portal.post(
    '/subscriptions/:id/change-plan',
    h.page(async (req, res) => {
      const productId = h.field(req, 'product_id');
      if (h.field(req, 'confirm') !== '1') {
        if (!verifyCsrf(req))
          return h.message(res, h.contextOf(req, res).organization, 'Not allowed', FORM_EXPIRED, 403);
        return showChangePlan(req, res, productId);
      }
      await change(req, res, { product_id: productId }, 'changed');
    }),
  );
}
