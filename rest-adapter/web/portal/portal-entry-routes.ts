import { actsForOrganization, soleOrganization } from '../../../kit/database/tenant-scope.js';
import type express from 'express';
import type { OrganizationDirectory } from '../../../subgraphs/identity/contract.js';
import { verifyCsrf } from '../../web-kit/csrf.js';
import { FORM_EXPIRED, LINK_EXPIRED, message, queryParam } from './portal-http.js';
import { locals, type PortalLocals, type PortalPages } from './portal-pages.js';
import {
  clearPortalToken,
  portalBase,
  readPortalToken,
  setPortalToken,
  TOKEN_PARAM,
  withoutToken,
} from './portal-session.js';

/** `customer_portal_url` (`/portal?customer_session_token=…`): to the seller's portal, signed in. */
export function sessionLinkRoute(router: express.Router, pages: PortalPages, organizations: OrganizationDirectory) {
  router.get(
    '/portal',
    pages.page(async (req, res) => {
      const token = queryParam(req, TOKEN_PARAM);
      const customer = await pages.customerOf(token ?? undefined);
      const home = customer ? soleOrganization(customer) : null;
      const organization = home ? await organizations.profile(home) : null;
      if (!token || !customer || !organization) return message(res, null, 'Link expired', LINK_EXPIRED, 404);
      setPortalToken(req, res, organization.slug, token);
      res.redirect(303, portalBase(organization.slug));
    }),
  );
}

/**
 * `/portal/<slug>/…`: finds the seller, takes a customer session link's token into the cookie, and
 * hands the request to `portal` with the seller, its base path and the signed-in customer (if any) on
 * `res.locals`.
 */
export function mountPortal(
  router: express.Router,
  portal: express.Router,
  pages: PortalPages,
  organizations: OrganizationDirectory,
) {
  router.use(
    '/portal/:slug',
    pages.page(async (req, res) => {
      const organization = await organizations.profileBySlug(String(req.params.slug));
      if (!organization) return message(res, null, 'Not found', 'There is no customer portal here.', 404);
      const base = portalBase(organization.slug);
      // A customer session link into any view: keep the token in the cookie, drop it from the URL.
      const linked = queryParam(req, TOKEN_PARAM);
      if (linked && (req.method === 'GET' || req.method === 'HEAD')) {
        const customer = await pages.customerOf(linked);
        if (customer && actsForOrganization(customer, organization.id)) {
          setPortalToken(req, res, organization.slug, linked);
          return res.redirect(303, withoutToken(req.originalUrl));
        }
        return message(res, organization, 'Link expired', LINK_EXPIRED, 400);
      }
      const customer = await pages.customerOf(readPortalToken(req));
      const own = customer && actsForOrganization(customer, organization.id) ? customer : null;
      // The customer is this request's principal: CSRF tokens are bound to its session.
      if (own) req.principal = own;
      Object.assign(res.locals, { organization, base, customer: own } satisfies PortalLocals);
      portal(req, res, () => message(res, organization, 'Not found', 'There is nothing here.', 404));
    }),
  );
}

/** Everything registered after this is for a signed-in customer; others go to the sign-in, and back after it. */
export function requireCustomer(portal: express.Router): void {
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
}

export function signOutRoute(portal: express.Router, pages: PortalPages): void {
  portal.post(
    '/sign-out',
    pages.page(async (req, res) => {
      const { base, organization } = locals(res);
      if (!verifyCsrf(req)) return message(res, organization, 'Not allowed', FORM_EXPIRED, 403);
      clearPortalToken(req, res, organization.slug);
      res.redirect(303, `${base}/request`);
    }),
  );
}
