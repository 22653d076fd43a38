import type express from 'express';
import type { Request, Response } from 'express';
import type { AuthorizeOutcome, SignedInPerson } from '../../subgraphs/identity/contract.js';
import {
  clearSessionCookie,
  currentUser,
  issueCsrfToken,
  loginUrl,
  requireSignIn,
  safeReturnTo,
  sendPage,
  verifyCsrf,
} from '../web-kit/kit.js';
import { formRequest, type OAuthRouteKit } from './http.js';
import { authorizationErrorPage, consentPage } from './pages.js';

const AUTHORIZE_PATHS = ['/oauth2/authorize', '/v1/oauth2/authorize'];
const CONSENT_PATHS = ['/oauth2/consent', '/v1/oauth2/consent'];

/** The authorization endpoint and the consent form (HTML). */
export function authorizationRoutes(router: express.Router, kit: OAuthRouteKit): void {
  const authorize = kit.endpoint((req, res) => authorizeRequest(kit, req, res));
  for (const path of AUTHORIZE_PATHS) router.get(path, authorize);
  const consent = kit.endpoint((req, res) => consentDecision(kit, req, res));
  for (const path of CONSENT_PATHS) router.post(path, consent);
}

/** `GET /oauth2/authorize`: the provider decides on the query as sent and the signed-in person. */
async function authorizeRequest({ provider, issuer }: OAuthRouteKit, req: Request, res: Response): Promise<void> {
  noCors(res);
  const { params, repeated } = searchOf(req.originalUrl);
  const outcome = await provider.authorize(issuer, params, repeated, personOf(req));
  await answer(req, res, outcome, () => req.originalUrl);
}

/** `POST /oauth2/consent`: the person's allow or deny, on the request the consent page carried. */
async function consentDecision({ provider, issuer }: OAuthRouteKit, req: Request, res: Response): Promise<void> {
  noCors(res);
  const form = formRequest(req).body;
  const backToAuthorize = () => `/oauth2/authorize?${new URLSearchParams(carriedOf(form)).toString()}`;
  const person = personOf(req);
  if (!person) {
    res.redirect(303, loginUrl(safeReturnTo(backToAuthorize())));
    return;
  }
  if (!verifyCsrf(req)) {
    sendPage(
      res,
      authorizationErrorPage(
        'invalid_request',
        'This form has expired or did not come from this site. Go back to the application and start again.',
      ),
      400,
    );
    return;
  }
  const decision = {
    allow: form.action === 'allow',
    ...(form.organization_id ? { organizationId: form.organization_id } : {}),
  };
  const outcome = await provider.consent(issuer, carriedOf(form), person, decision);
  await answer(req, res, outcome, backToAuthorize);
}

/** The provider's outcome as HTTP: an error page, the redirect to the client, the sign-in, or the consent page. */
async function answer(req: Request, res: Response, outcome: AuthorizeOutcome, returnTo: () => string): Promise<void> {
  switch (outcome.kind) {
    case 'error_page':
      sendPage(res, authorizationErrorPage(outcome.error, outcome.description), 400);
      return;
    case 'redirect':
      // RFC 9700 §4.12: 303 after a form post, so the browser never re-posts to the client.
      res.redirect(req.method === 'POST' ? 303 : 302, outcome.location);
      return;
    case 'login':
      if (outcome.signedOut) clearSessionCookie(req, res);
      if (!outcome.signedOut && outcome.dropParams.length === 0 && req.method === 'GET') {
        requireSignIn(req, res);
        return;
      }
      res.redirect(303, loginUrl(safeReturnTo(withoutParams(returnTo(), outcome.dropParams))));
      return;
    case 'consent': {
      const csrfToken = issueCsrfToken(req, res);
      sendPage(res, consentPage(outcome.view, csrfToken, { email: outcome.view.user.email, csrfToken }));
    }
  }
}

/** RFC 9700 §4.16 / docs/oauth.md#rfc-9700-checklist item 10: no CORS on the authorization endpoint. */
function noCors(res: Response): void {
  for (const header of ['Access-Control-Allow-Origin', 'Access-Control-Allow-Headers', 'Access-Control-Expose-Headers'])
    res.removeHeader(header);
}

function personOf(req: Request): SignedInPerson | null {
  const user = currentUser(req);
  return user?.sessionId ? { userId: user.id, sessionId: user.sessionId } : null;
}

/** First value of each query parameter (empty ones count as absent, OIDC Core §3.1.2.1) and the repeated keys. */
function searchOf(url: string): { params: Record<string, string>; repeated: string[] } {
  const search = new URL(url, 'http://local').searchParams;
  const params: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [key, value] of search) {
    if (value === '') continue;
    if (key in params) repeated.add(key);
    else params[key] = value;
  }
  return { params, repeated: [...repeated] };
}

/** The request fields the consent form carries (everything but the decision and the CSRF token). */
function carriedOf(form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    if (key !== 'csrf_token' && key !== 'action' && key !== 'organization_id' && value !== '') out[key] = value;
  }
  return out;
}

function withoutParams(path: string, drop: string[]): string {
  if (!drop.length) return path;
  const url = new URL(path, 'http://local');
  for (const key of drop) url.searchParams.delete(key);
  return url.pathname + url.search;
}
