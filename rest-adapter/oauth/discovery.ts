import type express from 'express';
import {
  AUTH_METHODS,
  CODE_CHALLENGE_METHODS,
  GRANT_TYPES,
  PROMPT_VALUES,
  SCOPES_SUPPORTED,
} from '../../subgraphs/identity/contract.js';
import { type OAuthRouteKit, sendOAuth } from './http.js';

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

/** Discovery and keys (CORS allowed: app.ts sets it on every answer). */
export function discoveryRoutes(router: express.Router, { provider, issuer, endpoint }: OAuthRouteKit): void {
  const metadata = providerMetadata(issuer);
  for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
    router.get(path, (_req, res) => void res.set('Cache-Control', 'public, max-age=300').json(metadata));
  }
  router.get(
    '/.well-known/jwks.json',
    endpoint(async (_req, res) => sendOAuth(res, await provider.jwks())),
  );
}
