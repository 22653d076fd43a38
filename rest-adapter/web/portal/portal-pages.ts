import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import type { Logger } from '../../../kit/logger.js';
import type { Principal, PrincipalResolver } from '../../../kit/principal.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import { issueCsrfToken } from '../../web-kit/csrf.js';
import type { HtmlValue } from '../../web-kit/html.js';
import { sendPage } from '../../web-kit/layout.js';
import { type StripeJsSettings, stripeJsCsp } from '../../web-kit/stripe-js.js';
import { cardFormScripts } from '../card-entry/card-entry.view.js';
import type { CardEntry } from '../checkout/checkout.views.js';
import type { PortalApi } from './portal-api.js';
import { safeExternalUrl, siteLink } from './portal-format.js';
import { message, messageOf, NOTICES, queryParam } from './portal-http.js';
import { renderPortalPage } from './portal-layout.js';
import { clearPortalToken, portalBase } from './portal-session.js';
import { type PortalContext, portalSections } from './portal-views.js';

export interface PortalDependencies {
  api: PortalApi;
  /** The app's principal resolver: a portal cookie holds a `polar_cst_` bearer. */
  principals: PrincipalResolver;
  /** Identity's organization profiles (slug → seller, and its portal settings). */
  organizations: OrganizationDirectory;
  /** The environment's public URL: links the API gives on it become paths of this site. */
  publicUrl: string;
  logger: Logger;
  /** How the add-payment-method and confirm-payment pages take a card (as the hosted checkout does). */
  cardEntry?: CardEntry;
  /** With `cardEntry: 'stripe'`: Stripe.js settings (unset: those pages cannot take a card). */
  stripe?: StripeJsSettings | null;
}

/** What the portal handlers find on `res.locals` (set where `/portal/<slug>` is mounted). */
export interface PortalLocals {
  organization: OrganizationProfile;
  base: string;
  customer: Principal | null;
}
export const locals = (res: Response) => res.locals as PortalLocals;

/** What the portal's route groups render with. */
export interface PortalPages {
  /** A page handler whose failure becomes the portal's message page (or the sign-in, on a 401). */
  page(handler: (req: Request, res: Response) => Promise<void>): RequestHandler;
  /** The customer a `polar_cst_` token stands for, or null (unknown, expired, not a customer). */
  customerOf(token: string | undefined): Promise<Principal | null>;
  /** The context a view renders in (the customer is signed in here). */
  contextOf(req: Request, res: Response): PortalContext;
  /** A signed-in page: header with the customer, the sections' navigation, the merchant's return link. */
  show(
    ctx: PortalContext,
    title: string,
    body: HtmlValue,
    current: string | null,
    status?: number,
    stripe?: StripeJsSettings | null,
  ): Promise<void>;
}

export function portalPages(deps: PortalDependencies): PortalPages {
  return {
    page: handler => async (req: Request, res: Response, next: NextFunction) => {
      try {
        await handler(req, res);
      } catch (error) {
        await portalFailure(deps.logger, req, res, error).catch(next);
      }
    },
    customerOf: token => customerOf(deps.principals, token),
    contextOf: (req, res) => contextOf(deps, req, res),
    show: (ctx, title, body, current, status, stripe) => show(deps.api, ctx, title, body, current, status, stripe),
  };
}

async function customerOf(principals: PrincipalResolver, token: string | undefined): Promise<Principal | null> {
  if (!token) return null;
  try {
    const principal = await principals.resolve(`Bearer ${token}`);
    return principal.subject === 'customer' ? principal : null;
  } catch {
    return null;
  }
}

function contextOf(deps: PortalDependencies, req: Request, res: Response): PortalContext {
  const { organization, base, customer } = locals(res);
  const principal = customer as Principal;
  return {
    req,
    res,
    api: deps.api,
    principal,
    organization,
    base,
    csrfToken: issueCsrfToken(req, res),
    call: (operationId, input = {}) => deps.api.call(operationId, input, principal, req.requestId),
    notice: NOTICES[noticeKey(queryParam(req, 'done'), queryParam(req, 'authentication'))] ?? null,
    link: url => siteLink(url, deps.publicUrl),
  };
}

async function show(
  api: PortalApi,
  ctx: PortalContext,
  title: string,
  body: HtmlValue,
  current: string | null,
  status = 200,
  stripe?: StripeJsSettings | null,
): Promise<void> {
  const [me, session] = await Promise.all([
    ctx.call('customer_portal:customers:get').catch(() => null),
    api.has('customer_portal:customer-session:introspect')
      ? ctx.call('customer_portal:customer-session:introspect').catch(() => null)
      : null,
  ]);
  const nav = portalSections()
    .filter(section => section.available(ctx))
    .map(section => ({ label: section.label, href: `${ctx.base}/${section.path}`, current: section.id === current }));
  sendPage(
    ctx.res,
    renderPortalPage({
      title,
      organization: ctx.organization,
      customer: { email: me?.email ?? null, csrfToken: ctx.csrfToken },
      nav,
      returnUrl: safeExternalUrl(session?.return_url),
      body,
      scripts: stripe ? cardFormScripts(stripe) : undefined,
    }),
    status,
    stripe ? stripeJsCsp(stripe.stripeJsUrl) : undefined,
  );
}

/** A failed page: an ended session goes to the sign-in, the API's refusals are shown, the rest is logged. */
async function portalFailure(logger: Logger, req: Request, res: Response, error: unknown): Promise<void> {
  const organization = (res.locals as Partial<PortalLocals>).organization ?? null;
  if (error instanceof DomainError && error.status === 401 && organization) {
    clearPortalToken(req, res, organization.slug);
    return res.redirect(303, `${portalBase(organization.slug)}/request?expired=1`);
  }
  if (error instanceof DomainError && error.status === 404)
    return message(res, organization, 'Not found', 'There is nothing here, or it is not yours.', 404);
  if (error instanceof DomainError && error.status < 500)
    return message(res, organization, 'Not possible', messageOf(error), error.status === 403 ? 403 : 400);
  logger.error({ err: error, requestId: req.requestId }, 'portal page failed');
  message(res, organization, 'Something went wrong', `The error was logged with request id ${req.requestId}.`, 500);
}

/**
 * The notice after a form: `done` names it; back from the sandbox's 3-D Secure page with
 * `authentication=failed`, a card or payment notice becomes its failure (`card-failed`, `pay-failed`).
 */
function noticeKey(done: string | null | undefined, authentication: string | null | undefined): string {
  if (authentication === 'failed' && (done === 'card' || done === 'paid'))
    return done === 'card' ? 'card-failed' : 'pay-failed';
  return done ?? '';
}
