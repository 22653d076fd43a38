import express, { type NextFunction, type Request, type Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import type { Logger } from '../../../kit/logger.js';
import { type Principal, type PrincipalResolver } from '../../../kit/principal.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { type HtmlValue } from '../../web-kit/html.js';
import { sendPage } from '../../web-kit/layout.js';
import { billingBody, type BillingForm } from './portal-account.js';
import type { PortalApi } from './portal-api.js';
import { safeExternalUrl, siteLink } from './portal-format.js';
import { renderPortalPage } from './portal-layout.js';
import {
  clearPortalToken,
  portalBase,
  readPortalToken,
  setPortalToken,
  TOKEN_PARAM,
  withoutToken,
} from './portal-session.js';
import { field, FORM_EXPIRED, LINK_EXPIRED, message, messageOf, NOTICES, queryParam } from './portal-http.js';
import { signInRoutes } from './portal-sign-in-routes.js';
import { subscriptionRoutes } from './portal-subscription-routes.js';
import { invoiceRoutes } from './portal-invoice-routes.js';
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
}

/** What the portal handlers find on `res.locals`. */
interface PortalLocals {
  organization: OrganizationProfile;
  base: string;
  customer: Principal | null;
}
const locals = (res: Response) => res.locals as PortalLocals;

/**
 * The customer portal as server-rendered pages (docs/web-pages.md): `/portal/<slug>/…`,
 * usable without JavaScript. A customer session link (`customer_portal_url`, or any portal path with
 * `?customer_session_token=`) becomes an HttpOnly cookie and a redirect; without one the customer signs
 * in with an e-mailed code. Every read and change goes through the documented Customer Portal API as the
 * customer (PortalApi), so the API's rules (and the organization's portal settings it enforces) hold here.
 */
export function createPortalRouter(deps: PortalDependencies): express.Router {
  const router = express.Router();
  const portal = express.Router({ mergeParams: true });

  const page =
    (handler: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        await handler(req, res);
      } catch (error) {
        await failure(req, res, error).catch(next);
      }
    };

  async function customerOf(token: string | undefined): Promise<Principal | null> {
    if (!token) return null;
    try {
      const principal = await deps.principals.resolve(`Bearer ${token}`);
      return principal.subject === 'customer' ? principal : null;
    } catch {
      return null;
    }
  }

  /** `customer_portal_url` (`/portal?customer_session_token=…`): to the seller's portal, signed in. */
  router.get(
    '/portal',
    page(async (req, res) => {
      const token = queryParam(req, TOKEN_PARAM);
      const customer = await customerOf(token ?? undefined);
      const organization = customer ? await deps.organizations.profile(customer.organizationIds[0]) : null;
      if (!token || !customer || !organization) return message(res, null, 'Link expired', LINK_EXPIRED, 404);
      setPortalToken(req, res, organization.slug, token);
      res.redirect(303, portalBase(organization.slug));
    }),
  );

  router.use(
    '/portal/:slug',
    page(async (req, res) => {
      const organization = await deps.organizations.profileBySlug(String(req.params.slug));
      if (!organization) return message(res, null, 'Not found', 'There is no customer portal here.', 404);
      const base = portalBase(organization.slug);
      // A customer session link into any view: keep the token in the cookie, drop it from the URL.
      const linked = queryParam(req, TOKEN_PARAM);
      if (linked && (req.method === 'GET' || req.method === 'HEAD')) {
        const customer = await customerOf(linked);
        if (customer?.organizationIds.includes(organization.id)) {
          setPortalToken(req, res, organization.slug, linked);
          return res.redirect(303, withoutToken(req.originalUrl));
        }
        return message(res, organization, 'Link expired', LINK_EXPIRED, 400);
      }
      const customer = await customerOf(readPortalToken(req));
      const own = customer?.organizationIds.includes(organization.id) ? customer : null;
      // The customer is this request's principal: CSRF tokens are bound to its session.
      if (own) req.principal = own;
      Object.assign(res.locals, { organization, base, customer: own } satisfies PortalLocals);
      portal(req, res, () => message(res, organization, 'Not found', 'There is nothing here.', 404));
    }),
  );

  signInRoutes(portal, { page, locals, customerOf, api: deps.api, organizations: deps.organizations });

  // Everything below is for a signed-in customer; others go to the sign-in, and back here after it.
  portal.use((req, res, next) => {
    if (locals(res).customer) return next();
    const { base } = locals(res);
    if (req.method === 'GET' || req.method === 'HEAD') {
      const here = req.originalUrl.split('?')[0];
      const back = here === base || here === `${base}/` ? '' : `?return_to=${encodeURIComponent(req.originalUrl)}`;
      return res.redirect(303, `${base}/request${back}`);
    }
    return res.redirect(303, `${base}/request?expired=1`);
  });

  portal.post(
    '/sign-out',
    page(async (req, res) => {
      const { base, organization } = locals(res);
      if (!verifyCsrf(req)) return message(res, organization, 'Not allowed', FORM_EXPIRED, 403);
      clearPortalToken(req, res, organization.slug);
      res.redirect(303, `${base}/request`);
    }),
  );

  /** The context a view renders in (the customer is signed in here). */
  const contextOf = (req: Request, res: Response): PortalContext => {
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
      notice: NOTICES[queryParam(req, 'done') ?? ''] ?? null,
      link: url => siteLink(url, deps.publicUrl),
    };
  };

  /** A signed-in page: header with the customer, the sections' navigation, the merchant's return link. */
  async function show(ctx: PortalContext, title: string, body: HtmlValue, current: string | null, status = 200) {
    const [me, session] = await Promise.all([
      ctx.call('customer_portal:customers:get').catch(() => null),
      deps.api.has('customer_portal:customer-session:introspect')
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
      }),
      status,
    );
  }

  portal.get(
    '/',
    page(async (req, res) => {
      const ctx = contextOf(req, res);
      const first = portalSections().find(section => section.available(ctx));
      res.redirect(303, `${ctx.base}/${first?.path ?? 'billing'}`);
    }),
  );

  for (const section of portalSections()) {
    portal.get(
      `/${section.path}`,
      page(async (req, res) => {
        const ctx = contextOf(req, res);
        if (!section.available(ctx)) return message(res, ctx.organization, 'Not found', 'There is nothing here.', 404);
        await show(ctx, section.label, await section.render(ctx), section.id);
      }),
    );
  }

  portal.post(
    '/billing',
    page(async (req, res) => {
      const ctx = contextOf(req, res);
      if (!verifyCsrf(req)) return message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
      const form: BillingForm = Object.fromEntries(
        ['billing_name', 'line1', 'line2', 'postal_code', 'city', 'state', 'country', 'tax_id'].map(k => [
          k,
          field(req, k).trim(),
        ]),
      );
      const address = form.line1 || form.city || form.postal_code || form.country;
      try {
        await ctx.call('customer_portal:customers:update', {
          body: {
            billing_name: form.billing_name ?? '',
            ...(address
              ? {
                  billing_address: {
                    line1: form.line1 || null,
                    line2: form.line2 || null,
                    postal_code: form.postal_code || null,
                    city: form.city || null,
                    state: form.state || null,
                    country: (form.country ?? '').toUpperCase(),
                  },
                }
              : {}),
            tax_id: form.tax_id ?? '',
          },
        });
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500) throw error;
        const me = await ctx.call('customer_portal:customers:get');
        const body = billingBody({
          base: ctx.base,
          csrfToken: ctx.csrfToken,
          email: me.email,
          form,
          error: messageOf(error),
        });
        return show(ctx, 'Billing details', body, 'billing', 400);
      }
      res.redirect(303, `${ctx.base}/billing?done=billing`);
    }),
  );

  invoiceRoutes(portal, { page, contextOf, show, message, api: deps.api, publicUrl: deps.publicUrl });

  subscriptionRoutes(portal, { page, contextOf, show, message, field, api: deps.api });

  async function failure(req: Request, res: Response, error: unknown): Promise<void> {
    const organization = (res.locals as Partial<PortalLocals>).organization ?? null;
    if (error instanceof DomainError && error.status === 401 && organization) {
      clearPortalToken(req, res, organization.slug);
      return res.redirect(303, `${portalBase(organization.slug)}/request?expired=1`);
    }
    if (error instanceof DomainError && error.status === 404)
      return message(res, organization, 'Not found', 'There is nothing here, or it is not yours.', 404);
    if (error instanceof DomainError && error.status < 500)
      return message(res, organization, 'Not possible', messageOf(error), error.status === 403 ? 403 : 400);
    deps.logger.error({ err: error, requestId: req.requestId }, 'portal page failed');
    message(res, organization, 'Something went wrong', `The error was logged with request id ${req.requestId}.`, 500);
  }

  return router;
}
