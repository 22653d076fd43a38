import express from 'express';
import { benefitRoutes } from './portal-benefit-routes.js';
import { claimRoutes } from './portal-claim-routes.js';
import { emailLinkRoute } from './portal-email-link.js';
import { emailChangeRequestRoute, verifyEmailRoutes } from './portal-email-update.js';
import { mountPortal, requireCustomer, sessionLinkRoute, signOutRoute } from './portal-entry-routes.js';
import { field, message } from './portal-http.js';
import { invoiceRoutes } from './portal-invoice-routes.js';
import { locals, type PortalDependencies, portalPages } from './portal-pages.js';
import { billingRoutes, sectionRoutes } from './portal-section-routes.js';
import { cardRoutes } from './portal-card-routes.js';
import { signInRoutes } from './portal-sign-in-routes.js';
import { subscriptionRoutes } from './portal-subscription-routes.js';

export type { PortalDependencies } from './portal-pages.js';

/**
 * The customer portal as server-rendered pages (docs/web-pages.md): `/portal/<slug>/…`,
 * usable without JavaScript. A customer session link (`customer_portal_url`, or any portal path with
 * `?customer_session_token=`) becomes an HttpOnly cookie and a redirect; without one the customer signs
 * in with an e-mailed code. Every read and change goes through the documented Customer Portal API as the
 * customer (PortalApi), so the API's rules (and the organization's portal settings it enforces) hold here.
 * The order of the route groups is the order requests meet them: the sign-in pages before
 * `requireCustomer`, the signed-in pages after it.
 */
export function createPortalRouter(deps: PortalDependencies): express.Router {
  const router = express.Router();
  const portal = express.Router({ mergeParams: true });
  const pages = portalPages(deps);
  const { page, contextOf, show, customerOf } = pages;
  const { api, organizations } = deps;

  sessionLinkRoute(router, pages, organizations);
  emailLinkRoute(router, pages, api, organizations);
  mountPortal(router, portal, pages, organizations);
  signInRoutes(portal, { page, locals, customerOf, api, organizations });
  verifyEmailRoutes(portal, { page, locals, customerOf, api, organizations });
  // The seat invitation's page: the token is its own proof, so it comes before the sign-in gate.
  claimRoutes(portal, pages, api);
  requireCustomer(portal);
  signOutRoute(portal, pages);
  sectionRoutes(portal, pages);
  billingRoutes(portal, pages);
  emailChangeRequestRoute(portal, pages);
  benefitRoutes(portal, pages);
  cardRoutes(portal, pages, {
    publicUrl: deps.publicUrl,
    cardEntry: deps.cardEntry ?? 'none',
    stripe: deps.stripe ?? null,
  });
  invoiceRoutes(portal, { page, contextOf, show, message, api, publicUrl: deps.publicUrl });
  subscriptionRoutes(portal, { page, contextOf, show, message, field, api });
  return router;
}
