import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { FORM_EXPIRED, messageOf, queryParam } from './portal-http.js';
import { changePlanBody, changeSeatsBody, type ChangeReview, reviewBody } from './portal-plan-change.js';
import { actionsOf, type Helpers, planChange } from './portal-subscription-actions.js';
import type { PortalContext } from './portal-views.js';

type Wire = Record<string, any>;

interface PlanChangeHelpers extends Helpers {
  get(ctx: PortalContext, id: string): Promise<Wire>;
  showSubscription(ctx: PortalContext, s: Wire, status?: number, error?: string | null): Promise<void>;
  /** The PATCH (CSRF checked), then 303 to the subscription's page with `?done=`. */
  change(req: Request, res: Response, body: Record<string, unknown>, done: string): Promise<void>;
}

/**
 * Plan and seat changes: choose (a GET form), review (a GET page showing the portal's update preview of
 * exactly the body the confirmation sends: its lines, total and when it applies), confirm (a POST with
 * CSRF that runs the PATCH). Shown only where the organization allows the change and this server's
 * portal API makes it; a refusal of the preview (settings, state, bad input) is shown on the choice page.
 */
export function planChangeRoutes(portal: express.Router, h: PlanChangeHelpers): void {
  changePlanRoutes(portal, h);
  changeSeatsRoutes(portal, h);
}

/** The subscription, if the customer may make this kind of change to it now; else its page is shown. */
async function changeable(h: PlanChangeHelpers, req: Request, res: Response, kind: 'changePlan' | 'changeSeats') {
  const ctx = h.contextOf(req, res);
  const s = await h.get(ctx, String(req.params.id));
  if (!actionsOf(ctx, s)[kind]) {
    await h.showSubscription(ctx, s);
    return null;
  }
  return { ctx, s };
}

/**
 * The review page: the preview of `body` (what the confirmation will send), or, when the API refuses
 * it, the choice page again with the API's words.
 */
async function review(
  h: PlanChangeHelpers,
  ctx: PortalContext,
  s: Wire,
  body: Record<string, unknown>,
  review: ChangeReview,
  refused: (status: number, error: string) => Promise<void>,
) {
  const endpoint = planChange(ctx.api)?.preview;
  let preview: Wire | null = null;
  if (endpoint) {
    try {
      preview = await ctx.call(endpoint, { params: { id: s.id }, body });
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500 || error.status === 401 || error.status === 404)
        throw error;
      return refused(error.status === 403 ? 403 : 400, messageOf(error));
    }
  }
  await h.show(ctx, 'Review the change', reviewBody(s, preview, review, ctx.csrfToken), 'subscriptions');
}

const subscriptionPath = (ctx: PortalContext, s: Wire) => `${ctx.base}/subscriptions/${s.id}`;

/** What the review page says and where its buttons go, for a change to `title` posted to `<subscription>/<step>`. */
function reviewOf(
  ctx: PortalContext,
  s: Wire,
  step: string,
  title: string,
  fields: Record<string, string>,
): ChangeReview {
  const path = subscriptionPath(ctx, s);
  return { title, action: `${path}/${step}`, fields, back: `${path}/${step}`, subscription: path };
}

async function products(ctx: PortalContext): Promise<Wire[]> {
  const data = await ctx.call('customer_portal:organizations:get', { params: { slug: ctx.organization.slug } });
  return data?.products ?? [];
}

/** Change plan: the choice of products, its review, the confirmation. */
function changePlanRoutes(portal: express.Router, h: PlanChangeHelpers): void {
  async function showPlans(ctx: PortalContext, s: Wire, status = 200, error: string | null = null) {
    const body = changePlanBody(s, { base: ctx.base, products: await products(ctx), error });
    await h.show(ctx, 'Change plan', body, 'subscriptions', status);
  }

  portal.get(
    '/subscriptions/:id/change-plan',
    h.page(async (req, res) => {
      const found = await changeable(h, req, res, 'changePlan');
      if (found) await showPlans(found.ctx, found.s);
    }),
  );

  portal.get(
    '/subscriptions/:id/change-plan/review',
    h.page(async (req, res) => {
      const found = await changeable(h, req, res, 'changePlan');
      if (!found) return;
      const { ctx, s } = found;
      const productId = queryParam(req, 'product_id') ?? '';
      const chosen = (await products(ctx)).find(p => p.id === productId && p.id !== s.product_id);
      if (!chosen) return showPlans(ctx, s, 400, 'Choose one of the plans below.');
      await review(
        h,
        ctx,
        s,
        { product_id: chosen.id },
        reviewOf(ctx, s, 'change-plan', `Change to ${chosen.name}`, { product_id: chosen.id }),
        (status, error) => showPlans(ctx, s, status, error),
      );
    }),
  );

  // The confirmation; a post without `confirm` is the former one-form choice: to its review.
  portal.post(
    '/subscriptions/:id/change-plan',
    h.page(async (req, res) => {
      const productId = h.field(req, 'product_id');
      if (h.field(req, 'confirm') !== '1') {
        if (!verifyCsrf(req))
          return h.message(res, h.contextOf(req, res).organization, 'Not allowed', FORM_EXPIRED, 403);
        const { base } = h.contextOf(req, res);
        return res.redirect(
          303,
          `${base}/subscriptions/${String(req.params.id)}/change-plan/review?product_id=${encodeURIComponent(productId)}`,
        );
      }
      await h.change(req, res, { product_id: productId }, 'changed');
    }),
  );
}

/** Change seats: the number of seats, its review, the confirmation. */
function changeSeatsRoutes(portal: express.Router, h: PlanChangeHelpers): void {
  async function showSeats(ctx: PortalContext, s: Wire, seats?: string, status = 200, error: string | null = null) {
    await h.show(ctx, 'Change seats', changeSeatsBody(s, { base: ctx.base, seats, error }), 'subscriptions', status);
  }

  portal.get(
    '/subscriptions/:id/seats',
    h.page(async (req, res) => {
      const found = await changeable(h, req, res, 'changeSeats');
      if (found) await showSeats(found.ctx, found.s);
    }),
  );

  portal.get(
    '/subscriptions/:id/seats/review',
    h.page(async (req, res) => {
      const found = await changeable(h, req, res, 'changeSeats');
      if (!found) return;
      const { ctx, s } = found;
      const typed = (queryParam(req, 'seats') ?? '').trim();
      const seats = /^\d{1,6}$/.test(typed) ? Number(typed) : Number.NaN;
      if (!(seats >= 1)) return showSeats(ctx, s, typed, 400, 'Enter a whole number of seats, at least 1.');
      if (seats === s.seats) return showSeats(ctx, s, typed, 400, `You have ${seats} seats already.`);
      await review(
        h,
        ctx,
        s,
        { seats },
        reviewOf(ctx, s, 'seats', `Change to ${seats} seats`, { seats: String(seats) }),
        (status, error) => showSeats(ctx, s, typed, status, error),
      );
    }),
  );

  portal.post(
    '/subscriptions/:id/seats',
    h.page(async (req, res) => {
      const typed = h.field(req, 'seats');
      const seats = /^\d{1,6}$/.test(typed) ? Number(typed) : typed;
      await h.change(req, res, { seats }, 'seats');
    }),
  );
}
