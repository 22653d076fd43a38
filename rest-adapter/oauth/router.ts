import express from 'express';
import type { Logger } from '../../kit/logger.js';
import type { OAuth2Provider } from '../../subgraphs/identity/contract.js';
import { authorizationRoutes } from './authorization.js';
import { clientRegistrationRoutes } from './client-registration.js';
import { discoveryRoutes } from './discovery.js';
import { type OAuthRouteKit, oauthEndpoint } from './http.js';
import { tokenRoutes } from './token-routes.js';

export interface OAuth2RouterDependencies {
  provider: OAuth2Provider;
  /** The issuer: the public URL of this environment (PUBLIC_URL / SANDBOX_PUBLIC_URL). */
  issuer: string;
  logger: Logger;
}

/**
 * The OAuth 2.0 / OpenID Connect endpoints and the authorization pages. Every decision is made by the
 * identity subgraph through `OAuth2Provider`; this router only speaks HTTP: it parses forms and
 * queries, writes OAuth-shaped answers and renders the pages with the web kit. One route group per
 * file: discovery and keys, the token endpoints, client registration, authorization and consent.
 */
export function createOAuth2Router(deps: OAuth2RouterDependencies): express.Router {
  const router = express.Router();
  const kit: OAuthRouteKit = { provider: deps.provider, issuer: deps.issuer, endpoint: oauthEndpoint(deps.logger) };
  discoveryRoutes(router, kit);
  tokenRoutes(router, kit);
  clientRegistrationRoutes(router, kit);
  authorizationRoutes(router, kit);
  return router;
}
