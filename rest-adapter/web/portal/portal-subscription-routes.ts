import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { FORM_EXPIRED, messageOf } from './portal-http.js';
import { actionsOf, type Helpers } from './portal-subscription-actions.js';
import { planChangeRoutes } from './portal-plan-change-routes.js';
import { cancelBody, subscriptionBody } from './portal-subscriptions.js';
import type { PortalContext } from './portal-views.js';

type Wire = Record<string, any>;

/** The subscription pages: one subscription, cancel (with its confirmation), uncancel; plan and seat changes. */
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
      return showSubscription(ctx, await get(ctx, id), error.status === 403 ? 403 : 400, messageOf(error));
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

  planChangeRoutes(portal, { ...h, get, showSubscription, change });
}
