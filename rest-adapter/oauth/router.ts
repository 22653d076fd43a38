import express, { type Request, type Response } from 'express';
import type { Logger } from '../../kit/logger.js';
import { bearerOf } from '../../kit/principal.js';
import {
  AUTH_METHODS,
  CODE_CHALLENGE_METHODS,
  GRANT_TYPES,
  PROMPT_VALUES,
  SCOPES_SUPPORTED,
} from '../../subgraphs/identity/contract.js';
import type {
  AuthorizeOutcome,
  OAuth2Provider,
  OAuthFormRequest,
  OAuthHttpResult,
  SignedInPerson,
} from '../../subgraphs/identity/contract.js';
import { sameOriginWrites } from '../guards/same-origin-writes.js';
import { sendError } from '../v1/wire-errors.js';
import { NotPermitted } from '../../kit/errors.js';
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
import { authorizationErrorPage, consentPage } from './pages.js';

export interface OAuth2RouterDependencies {
  provider: OAuth2Provider;
  /** The issuer: the public URL of this environment (PUBLIC_URL / SANDBOX_PUBLIC_URL). */
  issuer: string;
  logger: Logger;
}

const AUTHORIZE_PATHS = ['/oauth2/authorize', '/v1/oauth2/authorize'];
const CONSENT_PATHS = ['/oauth2/consent', '/v1/oauth2/consent'];

/** The OpenID Provider metadata (OIDC Discovery §3, RFC 8414 §2; docs/polar/auth.md#oauth-and-oidc-server). */
export function providerMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth2/authorize`,
    token_endpoint: `${issuer}/v1/oauth2/token`,
    userinfo_endpoint: `${issuer}/v1/oauth2/userinfo`,
    registration_endpoint: `${issuer}/v1/oauth2/register`,
    revocation_endpoint: `${issuer}/v1/oauth2/revoke`,
    introspection_endpoint: `${issuer}/v1/oauth2/introspect`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    scopes_supported: SCOPES_SUPPORTED,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: GRANT_TYPES,
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    // Introspection is for confidential clients only (OAuth2TokenService.introspect).
    introspection_endpoint_auth_methods_supported: AUTH_METHODS.filter(m => m !== 'none'),
    code_challenge_methods_supported: CODE_CHALLENGE_METHODS,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: ['sub', 'name', 'email', 'email_verified'],
    prompt_values_supported: PROMPT_VALUES,
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
    service_documentation: `${issuer}/docs`,
  };
}

/**
 * The OAuth 2.0 / OpenID Connect endpoints and the authorization pages. Every decision is made by the
 * identity subgraph through `OAuth2Provider`; this router only speaks HTTP: it parses forms and
 * queries, writes OAuth-shaped answers and renders the pages with the web kit.
 */
export function createOAuth2Router(deps: OAuth2RouterDependencies): express.Router {
  const router = express.Router();
  const { provider, issuer } = deps;

  const send = (res: Response, result: OAuthHttpResult) => {
    res.status(result.status);
    if (result.headers) res.set(result.headers);
    if (result.body === undefined) res.end();
    else res.json(result.body);
  };

  const endpoint = (handler: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try {
      await handler(req, res);
    } catch (error) {
      deps.logger.error({ err: error, requestId: req.requestId }, 'oauth2 endpoint failed');
      if (res.headersSent) return;
      res
        .status(500)
        .set({ 'Cache-Control': 'no-store' })
        .json({ error: 'server_error', error_description: 'The server could not complete the request.' });
    }
  };

  // Discovery and keys (CORS allowed: app.ts sets it on every answer).
  const metadata = providerMetadata(issuer);
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    router.get(path, (_req, res) => void res.set('Cache-Control', 'public, max-age=300').json(metadata));
  }
  router.get(
    '/.well-known/jwks.json',
    endpoint(async (_req, res) => send(res, await provider.jwks())),
  );

  // Token, revocation, introspection: form posts with client authentication.
  router.post(
    '/v1/oauth2/token',
    endpoint(async (req, res) => send(res, await provider.token(issuer, formRequest(req)))),
  );
  router.post(
    '/v1/oauth2/revoke',
    endpoint(async (req, res) => send(res, await provider.revoke(issuer, formRequest(req)))),
  );
  router.post(
    '/v1/oauth2/introspect',
    endpoint(async (req, res) => send(res, await provider.introspect(issuer, formRequest(req)))),
  );
  router.all(
    '/v1/oauth2/userinfo',
    endpoint(async (req, res) => {
      if (req.method !== 'GET' && req.method !== 'POST') {
        res.status(405).set('Allow', 'GET, POST').json({ detail: 'Method Not Allowed' });
        return;
      }
      send(res, await provider.userinfo(issuer, req.principal));
    }),
  );

  // Dynamic client registration (RFC 7591) and management (RFC 7592). A signed-in browser registers and
  // manages its own clients with the session cookie: only from this site's pages (same-origin-writes.ts).
  const cookieWrites = sameOriginWrites({ publicUrl: issuer, inScope: () => true });
  router.post(
    '/v1/oauth2/register',
    cookieWrites,
    endpoint(async (req, res) => {
      const principal = req.principal;
      if (principal.subject === 'user' && principal.credential !== 'user_session') {
        // docs/polar/auth.md#oauth-and-oidc-server: a person's API token cannot register clients; the web session can.
        sendError(
          res,
          new NotPermitted('Clients are registered anonymously or from a signed-in browser, not with an API token.'),
        );
        return;
      }
      const registrant = principal.credential === 'user_session' ? principal.subjectId : null;
      send(res, await provider.registerClient(issuer, req.body, registrant));
    }),
  );
  const caller = (req: Request) => {
    const bearer = bearerOf(req.get('authorization'));
    const user = currentUser(req);
    return { ...(bearer ? { bearer } : {}), ...(user ? { userId: user.id } : {}) };
  };
  router.get(
    '/v1/oauth2/register/:client_id',
    endpoint(async (req, res) =>
      send(res, await provider.readClient(issuer, String(req.params.client_id), caller(req))),
    ),
  );
  router.put(
    '/v1/oauth2/register/:client_id',
    cookieWrites,
    endpoint(async (req, res) =>
      send(res, await provider.updateClient(issuer, String(req.params.client_id), req.body, caller(req))),
    ),
  );
  router.delete(
    '/v1/oauth2/register/:client_id',
    cookieWrites,
    endpoint(async (req, res) =>
      send(res, await provider.deleteClient(issuer, String(req.params.client_id), caller(req))),
    ),
  );

  // The authorization endpoint and the consent form (HTML).
  const answer = async (req: Request, res: Response, outcome: AuthorizeOutcome, returnTo: () => string) => {
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
  };

  const authorize = endpoint(async (req, res) => {
    noCors(res);
    const { params, repeated } = searchOf(req.originalUrl);
    const outcome = await provider.authorize(issuer, params, repeated, personOf(req));
    await answer(req, res, outcome, () => req.originalUrl);
  });
  for (const path of AUTHORIZE_PATHS) router.get(path, authorize);

  const consent = endpoint(async (req, res) => {
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
  });
  for (const path of CONSENT_PATHS) router.post(path, consent);

  return router;
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

/** A form post as the OAuth services read it: one value per key, repeated keys listed. */
function formRequest(req: Request): OAuthFormRequest {
  const raw =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body) && req.is('application/x-www-form-urlencoded')
      ? (req.body as Record<string, unknown>)
      : {};
  const body: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) {
      repeated.push(key);
      if (typeof value[0] === 'string') body[key] = value[0];
    } else if (typeof value === 'string') {
      body[key] = value;
    }
  }
  const queryKeys = [...new URL(req.originalUrl, 'http://local').searchParams.keys()];
  return { authorization: req.get('authorization'), contentType: req.get('content-type'), body, repeated, queryKeys };
}
