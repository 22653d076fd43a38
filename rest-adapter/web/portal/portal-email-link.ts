import type express from 'express';
import type { Request, Response } from 'express';
import { actsForOrganization } from '../../../kit/database/tenant-scope.js';
import { DomainError } from '../../../kit/errors.js';
import { ANONYMOUS } from '../../../kit/principal.js';
import { EMAIL_LINK_PARAM } from '../../../subgraphs/billing/contract.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import type { PortalApi } from './portal-api.js';
import { queryParam } from './portal-http.js';
import type { PortalPages } from './portal-pages.js';
import { portalBase, readPortalToken, setPortalToken } from './portal-session.js';

/**
 * A customer e-mail's link (`/portal/<slug>/<view>?login_token=…`): the one-time token is traded once,
 * through the API's `customer-session/authenticate`, for a customer session kept in the portal's
 * cookie, and the browser goes to the view without the token. A used or expired token leads to the
 * sign-in page (then back to the view), unless this browser is signed in to the portal already (the
 * e-mail's second link, after the first one was followed).
 */
export function emailLinkRoute(
  router: express.Router,
  pages: PortalPages,
  api: PortalApi,
  organizations: OrganizationDirectory,
): void {
  const follow = pages.page(async (req, res) => {
    const organization = await organizations.profileBySlug(String(req.params.slug));
    const target = withoutLink(req.originalUrl);
    if (!organization) return void res.redirect(303, target);
    const token = await exchange(api, String(queryParam(req, EMAIL_LINK_PARAM)), req);
    const customer = await pages.customerOf(token ?? readPortalToken(req));
    if (customer && actsForOrganization(customer, organization.id)) {
      if (token) setPortalToken(req, res, organization.slug, token);
      return res.redirect(303, target);
    }
    signIn(res, organization, target);
  });
  router.use('/portal/:slug', (req, res, next) =>
    req.method === 'GET' && queryParam(req, EMAIL_LINK_PARAM) ? follow(req, res, next) : next(),
  );
}

/** The session the token opens, or null when it is unknown, used or expired. */
async function exchange(api: PortalApi, code: string, req: Request): Promise<string | null> {
  try {
    const answer = await api.call<{ token: string }>(
      'customer_portal:customer-session:authenticate',
      { body: { code } },
      ANONYMOUS,
      req.requestId,
    );
    return answer.token;
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) return null;
    throw error;
  }
}

function signIn(res: Response, organization: OrganizationProfile, target: string): void {
  res.redirect(303, `${portalBase(organization.slug)}/request?expired=1&return_to=${encodeURIComponent(target)}`);
}

function withoutLink(originalUrl: string): string {
  const url = new URL(originalUrl, 'http://portal.invalid');
  url.searchParams.delete(EMAIL_LINK_PARAM);
  const search = url.searchParams.toString();
  return url.pathname + (search ? `?${search}` : '');
}
