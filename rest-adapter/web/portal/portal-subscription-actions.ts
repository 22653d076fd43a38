import type express from 'express';
import type { Request, Response } from 'express';
import type { HtmlValue } from '../../web-kit/html.js';
import type { PortalApi } from './portal-api.js';
import type { SubscriptionActions } from './portal-subscriptions.js';
import type { PortalContext } from './portal-views.js';

/** What the subscription pages may offer, and the router's helpers they render with. */

type Wire = Record<string, any>;

export interface Helpers {
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

const LIVE = new Set(['active', 'trialing', 'past_due']);
const ANY_UUID = '00000000-0000-4000-8000-000000000000';

/** Where plan changes can be made and previewed on this server (they arrive with the plan-change API). */
export function planChange(api: PortalApi): { preview: string | null; products: string | null; seats: boolean } | null {
  if (!api.accepts('customer_portal:subscriptions:update', { product_id: ANY_UUID })) return null;
  return {
    preview: api.findByPath('post', /^\/v1\/customer-portal\/subscriptions\/\{id\}\/(change|update)-preview$/),
    products: api.has('customer_portal:organizations:get') ? 'customer_portal:organizations:get' : null,
    seats: api.accepts('customer_portal:subscriptions:update', { seats: 2 }),
  };
}

/** What the customer may do to this subscription: the subscription's state and the organization's settings. */
export function actionsOf(ctx: PortalContext, s: Wire): SubscriptionActions {
  const settings = ctx.organization.customerPortalSettings.subscription;
  const open = LIVE.has(s.status) && !s.ended_at;
  const changes = open && !s.cancel_at_period_end ? planChange(ctx.api) : null;
  return {
    cancel: open && !s.cancel_at_period_end && settings.cancel !== false,
    uncancel: open && !!s.cancel_at_period_end,
    changePlan: !!changes?.products && settings.update_plan !== false,
    changeSeats: !!changes?.seats && s.seats != null && settings.update_seats !== false,
  };
}
