import express from 'express';
import { requireSignIn } from '../../web-kit/auth.js';
import { renderPage, sendPage } from '../../web-kit/layout.js';
import { page, pageUser, queryParam } from '../account-pages.js';
import { createDashboardAssetsRouter } from './dashboard-assets.js';
import { type DashboardDependencies, type DashboardRoute, dashboardPage } from './dashboard-context.js';
import { pickerBody } from './dashboard-frame.js';
import { customerRoutes } from './customers.js';
import { orderRoutes } from './orders.js';
import { showOverview } from './overview.js';
import { productRoutes } from './products.js';
import { settingsRoutes } from './settings.js';
import { webhookRoutes } from './webhooks.js';
import { subscriptionRoutes } from './subscriptions.js';
import { discountRoutes } from './discounts.js';
import { checkoutLinkRoutes } from './checkout-links.js';
import { subscriptionPlanRoutes } from './subscription-plan.js';
import { memberRoutes } from './members.js';
import { discountEditRoutes } from './discount-edit.js';
import { checkoutLinkEditRoutes } from './checkout-link-edit.js';
import { endpointRoutes } from './webhook-endpoints.js';
import { metricDashboardRoutes } from './metric-dashboards.js';

/** Every section's pages and actions (the overview is the organization's own path). */
const SECTION_ROUTES: DashboardRoute[] = [
  ...orderRoutes,
  ...subscriptionRoutes,
  ...customerRoutes,
  ...productRoutes,
  ...webhookRoutes,
  ...endpointRoutes,
  ...settingsRoutes,
  ...discountRoutes,
  ...discountEditRoutes,
  ...checkoutLinkRoutes,
  ...checkoutLinkEditRoutes,
  ...subscriptionPlanRoutes,
  ...memberRoutes,
  ...metricDashboardRoutes(showOverview),
];

/**
 * The merchant dashboard (docs/dashboard.md): `/dashboard` picks the organization, and every section lives
 * under `/dashboard/<organization id>/…`. Server-rendered HTML that works without scripts; every action
 * runs the `/v1` operation's own route object as the signed-in user.
 */
export function dashboardRoutes(deps: DashboardDependencies): express.Router {
  const router = express.Router();
  router.use(createDashboardAssetsRouter());
  router.get(
    '/dashboard',
    page(deps, async (_deps, req, res) => {
      if (!requireSignIn(req, res)) return;
      const organizations = await deps.identity.organizations(req.principal);
      const asked = queryParam(req, 'organization_id');
      const chosen = organizations.find(o => o.id === asked) ?? (organizations.length === 1 ? organizations[0] : null);
      if (chosen) return res.redirect(303, `/dashboard/${chosen.id}`);
      const body = pickerBody(deps.environment, organizations);
      sendPage(res, renderPage({ title: 'Dashboard', user: await pageUser(deps, req, res), body }));
    }),
  );
  // The sections are one router mounted under the organization's path (its id read with mergeParams).
  const sections = express.Router({ mergeParams: true });
  sections.get('/', dashboardPage(deps, showOverview));
  for (const route of SECTION_ROUTES) sections[route.method](route.path, dashboardPage(deps, route.handler));
  // Handed on as the portal's sections are (portal-entry-routes.ts): one mount, whose unknown paths fall through.
  router.use('/dashboard/:organizationId', (req, res, next) => sections(req, res, next));
  return router;
}
