import type express from 'express';
import { formRequest, type OAuthRouteKit, sendOAuth } from './http.js';

/** Token, revocation, introspection (form posts with client authentication) and userinfo. */
export function tokenRoutes(router: express.Router, { provider, issuer, endpoint }: OAuthRouteKit): void {
  router.post(
    '/v1/oauth2/token',
    endpoint(async (req, res) => sendOAuth(res, await provider.token(issuer, formRequest(req)))),
  );
  router.post(
    '/v1/oauth2/revoke',
    endpoint(async (req, res) => sendOAuth(res, await provider.revoke(issuer, formRequest(req)))),
  );
  router.post(
    '/v1/oauth2/introspect',
    endpoint(async (req, res) => sendOAuth(res, await provider.introspect(issuer, formRequest(req)))),
  );
  router.all(
    '/v1/oauth2/userinfo',
    endpoint(async (req, res) => {
      if (req.method !== 'GET' && req.method !== 'POST') {
        res.status(405).set('Allow', 'GET, POST').json({ detail: 'Method Not Allowed' });
        return;
      }
      sendOAuth(res, await provider.userinfo(issuer, req.principal));
    }),
  );
}
