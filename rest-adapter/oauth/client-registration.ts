import type express from 'express';
import type { Request } from 'express';
import { NotPermitted } from '../../kit/errors.js';
import { bearerOf } from '../../kit/principal.js';
import { sameOriginWrites } from '../guards/same-origin-writes.js';
import { sendError } from '../v1/wire-errors.js';
import { currentUser } from '../web-kit/kit.js';
import { type OAuthRouteKit, sendOAuth } from './http.js';

/** Who manages a client: the registration access token it was given, or the signed-in person who registered it. */
function caller(req: Request) {
  const bearer = bearerOf(req.get('authorization'));
  const user = currentUser(req);
  return { ...(bearer ? { bearer } : {}), ...(user ? { userId: user.id } : {}) };
}

/**
 * Dynamic client registration (RFC 7591) and management (RFC 7592). A signed-in browser registers and
 * manages its own clients with the session cookie: only from this site's pages (same-origin-writes.ts).
 */
export function clientRegistrationRoutes(router: express.Router, { provider, issuer, endpoint }: OAuthRouteKit): void {
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
      sendOAuth(res, await provider.registerClient(issuer, req.body, registrant));
    }),
  );
  router.get(
    '/v1/oauth2/register/:client_id',
    endpoint(async (req, res) =>
      sendOAuth(res, await provider.readClient(issuer, String(req.params.client_id), caller(req))),
    ),
  );
  router.put(
    '/v1/oauth2/register/:client_id',
    cookieWrites,
    endpoint(async (req, res) =>
      sendOAuth(res, await provider.updateClient(issuer, String(req.params.client_id), req.body, caller(req))),
    ),
  );
  router.delete(
    '/v1/oauth2/register/:client_id',
    cookieWrites,
    endpoint(async (req, res) =>
      sendOAuth(res, await provider.deleteClient(issuer, String(req.params.client_id), caller(req))),
    ),
  );
}
