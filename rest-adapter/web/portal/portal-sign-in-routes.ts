import { soleOrganization } from '../../../kit/database/tenant-scope.js';
import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { ANONYMOUS, type Principal } from '../../../kit/principal.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import { safeReturnTo } from '../../web-kit/auth.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import type { HtmlValue } from '../../web-kit/html.js';
import { sendPage } from '../../web-kit/layout.js';
import type { PortalApi } from './portal-api.js';
import { field, FORM_EXPIRED, queryParam } from './portal-http.js';
import { renderPortalPage } from './portal-layout.js';
import { portalBase, setPortalToken } from './portal-session.js';
import { codeForm, emailForm } from './portal-sign-in.js';

interface Helpers {
  page: (handler: (req: Request, res: Response) => Promise<void>) => express.RequestHandler;
  locals(res: Response): { organization: OrganizationProfile; base: string };
  customerOf(token: string | undefined): Promise<Principal | null>;
  api: PortalApi;
  organizations: OrganizationDirectory;
}

/**
 * Sign-in without a session link: `/portal/<slug>/request` (the e-mail) and `/authenticate` (the code),
 * through Polar's `customer-session/request` and `/authenticate` endpoints, called as an anonymous client.
 * Both posts are in the `sign_in` rate-limit zone.
 */
export function signInRoutes(portal: express.Router, h: Helpers): void {
  portal.get(
    '/request',
    h.page((req, res) => showEmailForm(h, req, res)),
  );
  portal.post(
    '/request',
    h.page((req, res) => requestCode(h, req, res)),
  );
  portal.get(
    '/authenticate',
    h.page((req, res) => showCodeForm(h, req, res)),
  );
  portal.post(
    '/authenticate',
    h.page((req, res) => authenticate(h, req, res)),
  );
}

function signInPage(h: Helpers, res: Response, title: string, body: HtmlValue, status = 200): void {
  sendPage(res, renderPortalPage({ title, organization: h.locals(res).organization, body, narrow: true }), status);
}

/** `GET /request`: the e-mail form (with a notice when the session has ended). */
async function showEmailForm(h: Helpers, req: Request, res: Response): Promise<void> {
  const { base, organization } = h.locals(res);
  const notice = queryParam(req, 'expired') ? 'Your session has ended. Sign in again.' : null;
  const returnTo = backTo(base, queryParam(req, 'return_to'));
  signInPage(
    h,
    res,
    'Sign in',
    emailForm({ base, organizationName: organization.name, csrfToken: issueCsrfToken(req, res), notice, returnTo }),
  );
}

/** `POST /request`: asks the API to e-mail a code, then on to the code form. */
async function requestCode(h: Helpers, req: Request, res: Response): Promise<void> {
  const { base, organization } = h.locals(res);
  const email = field(req, 'email').trim();
  const returnTo = backTo(base, field(req, 'return_to'));
  const again = (status: number, error: string) =>
    signInPage(
      h,
      res,
      'Sign in',
      emailForm({
        base,
        organizationName: organization.name,
        csrfToken: issueCsrfToken(req, res),
        email,
        error,
        returnTo,
      }),
      status,
    );
  if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
  try {
    await h.api.call(
      'customer_portal:customer-session:request',
      { body: { email, organization_id: organization.id } },
      ANONYMOUS,
      req.requestId,
    );
  } catch (error) {
    if (error instanceof DomainError && error.status === 422) return again(400, 'Enter a valid e-mail address.');
    throw error;
  }
  const query = new URLSearchParams({ email, ...(returnTo ? { return_to: returnTo } : {}) });
  res.redirect(303, `${base}/authenticate?${query.toString()}`);
}

/** `GET /authenticate`: the code form. */
async function showCodeForm(h: Helpers, req: Request, res: Response): Promise<void> {
  const { base } = h.locals(res);
  const email = queryParam(req, 'email');
  const returnTo = backTo(base, queryParam(req, 'return_to'));
  signInPage(h, res, 'Enter your code', codeForm({ base, csrfToken: issueCsrfToken(req, res), email, returnTo }));
}

/** `POST /authenticate`: the code becomes a customer session, kept in the cookie of the portal it is for. */
async function authenticate(h: Helpers, req: Request, res: Response): Promise<void> {
  const { base, organization } = h.locals(res);
  const returnTo = backTo(base, field(req, 'return_to'));
  const again = (status: number, error: string) =>
    signInPage(
      h,
      res,
      'Enter your code',
      codeForm({ base, csrfToken: issueCsrfToken(req, res), error, returnTo }),
      status,
    );
  if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
  let token: string;
  try {
    token = (
      await h.api.call<{ token: string }>(
        'customer_portal:customer-session:authenticate',
        { body: { code: field(req, 'code') } },
        ANONYMOUS,
        req.requestId,
      )
    ).token;
  } catch (error) {
    if (error instanceof DomainError && error.status < 500)
      return again(400, 'This code is invalid or has expired. Check it, or ask for a new one.');
    throw error;
  }
  const customer = await h.customerOf(token);
  // A code is for the organization it was asked for; one of another seller signs in there, not here.
  const homeId = customer ? soleOrganization(customer) : null;
  const home = homeId ? await h.organizations.profile(homeId) : null;
  const slug = home?.slug ?? organization.slug;
  setPortalToken(req, res, slug, token);
  res.redirect(303, slug === organization.slug && returnTo ? returnTo : portalBase(slug));
}

/** The portal page to come back to after signing in: a path of this portal, or nothing. */
export function backTo(base: string, value: string | null | undefined): string | null {
  const path = safeReturnTo(value, '');
  return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`) ? path : null;
}
