import type express from 'express';
import type { Request } from 'express';
import { actsForOrganization } from '../../../kit/database/tenant-scope.js';
import { DomainError } from '../../../kit/errors.js';
import { ANONYMOUS } from '../../../kit/principal.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { html } from '../../web-kit/html.js';
import { csrfField, sendPage } from '../../web-kit/layout.js';
import type { PortalApi } from './portal-api.js';
import { field, FORM_EXPIRED, message, queryParam } from './portal-http.js';
import { renderPortalPage } from './portal-layout.js';
import { locals, type PortalPages } from './portal-pages.js';
import { setPortalToken } from './portal-session.js';

export const INVITATION_PARAM = 'invitation_token';

const NOT_CLAIMABLE =
  'This invitation cannot be used: it has expired, was already used, or was replaced by a newer one. Ask whoever gave you the seat to send it again.';

type ClaimInfo = {
  product_name: string;
  organization_name: string;
  organization_slug: string;
  customer_email: string;
  can_claim: boolean;
};

/**
 * The page a seat invitation e-mail links to (`/portal/<slug>/claim?invitation_token=…`,
 * docs/customer-seats.md#the-rules). It needs no sign-in: the token is the proof. GET shows what the
 * token claims (Polar's claim info) and a "Claim my seat" form; the POST spends the token through
 * `POST /v1/customer-seats/claim` and keeps the customer session it answers in the portal's cookie, as the
 * portal's own sign-in does. A token that cannot be claimed is a message page that changes nothing.
 */
export function claimRoutes(portal: express.Router, pages: PortalPages, api: PortalApi): void {
  portal.get(
    '/claim',
    pages.page(async (req, res) => {
      const token = queryParam(req, INVITATION_PARAM) ?? '';
      const info = await claimInfo(api, req, token);
      const { organization, base } = locals(res);
      // A token of another seller's seat is not claimed from this seller's portal.
      if (!info?.can_claim || info.organization_slug !== organization.slug)
        return message(res, organization, 'Invitation not valid', NOT_CLAIMABLE, 404);
      const body = html`<h1>Claim your seat</h1>
<div class="card">
<p>You were given a seat of <strong>${info.product_name}</strong> from ${info.organization_name}.</p>
<dl class="facts"><dt>Product</dt><dd>${info.product_name}</dd><dt>Seller</dt><dd>${info.organization_name}</dd><dt>Invited e-mail</dt><dd>${info.customer_email}</dd></dl>
<form method="post" action="${base}/claim">${csrfField(issueCsrfToken(req, res))}<input type="hidden" name="${INVITATION_PARAM}" value="${token}"><button type="submit">Claim my seat</button></form>
</div>`;
      sendPage(res, renderPortalPage({ title: 'Claim your seat', organization, body, narrow: true }));
    }),
  );

  portal.post(
    '/claim',
    pages.page(async (req, res) => {
      const { organization, base } = locals(res);
      if (!verifyCsrf(req)) return message(res, organization, 'Not allowed', FORM_EXPIRED, 403);
      const token = field(req, INVITATION_PARAM);
      const info = await claimInfo(api, req, token);
      if (!info?.can_claim || info.organization_slug !== organization.slug)
        return message(res, organization, 'Invitation not valid', NOT_CLAIMABLE, 400);
      const session = await claim(api, req, token);
      if (!session) return message(res, organization, 'Invitation not valid', NOT_CLAIMABLE, 400);
      const customer = await pages.customerOf(session);
      if (!customer || !actsForOrganization(customer, organization.id))
        throw new Error('a claimed seat answered a session of another organization');
      setPortalToken(req, res, organization.slug, session);
      res.redirect(303, `${base}/subscriptions?done=claimed`);
    }),
  );
}

/** Polar's claim info, or null when the token is unknown, used or expired (a 4xx of the API). */
function claimInfo(api: PortalApi, req: Request, token: string): Promise<ClaimInfo | null> {
  if (!token) return Promise.resolve(null);
  return orNull(
    api.call<ClaimInfo>(
      'customer-seats:get_claim_info',
      { params: { invitation_token: token } },
      ANONYMOUS,
      req.requestId,
    ),
  );
}

/** The claim's customer session token, or null when the token was spent meanwhile. */
async function claim(api: PortalApi, req: Request, token: string): Promise<string | null> {
  const answer = await orNull(
    api.call<{ customer_session_token: string }>(
      'customer-seats:claim_seat',
      { body: { invitation_token: token } },
      ANONYMOUS,
      req.requestId,
    ),
  );
  return answer?.customer_session_token ?? null;
}

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) return null;
    throw error;
  }
}
