import { ALL_SCOPES } from '../../../kit/scopes.js';
import { describeScope, SCOPES_SUPPORTED } from '../../../subgraphs/identity/contract.js';
import type { Json } from './wire-schemas.js';

/** The OAuth endpoints the authorization code flow uses (rest-adapter/oauth/router.ts). */
export const AUTHORIZATION_PATH = '/oauth2/authorize';
export const TOKEN_PATH = '/v1/oauth2/token';

/** Scopes no OAuth client can be granted: only personal access tokens carry them. */
const PERSONAL_ONLY_SCOPES = ALL_SCOPES.filter(s => !SCOPES_SUPPORTED.includes(s));

/**
 * `components.securitySchemes`. The flow URLs are absolute when the document knows its server (the
 * served /openapi.json), relative to it otherwise (the committed file).
 */
export function securitySchemes(serverUrl?: string): Record<string, Json> {
  const at = (path: string) => `${serverUrl ?? ''}${path}`;
  return {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description:
        'An organization access token (`polar_oat_…`), personal access token (`polar_pat_…`), OAuth 2.0 access ' +
        'token (`polar_at_u_…`, `polar_at_o_…`) or customer session token (`polar_cst_…`). An operation lists ' +
        'the scopes of which the token needs any one. ' +
        `Personal access tokens only: ${PERSONAL_ONLY_SCOPES.map(s => `\`${s}\` (${describeScope(s)})`).join(', ')}.`,
    },
    oauth2: {
      type: 'oauth2',
      description:
        'OAuth 2.0 authorization code flow (PKCE with S256 or plain; required for public clients). Register a ' +
        'client at `POST /v1/oauth2/register`. Discovery: `/.well-known/openid-configuration`.',
      flows: {
        authorizationCode: {
          authorizationUrl: at(AUTHORIZATION_PATH),
          tokenUrl: at(TOKEN_PATH),
          refreshUrl: at(TOKEN_PATH),
          scopes: Object.fromEntries(SCOPES_SUPPORTED.map(s => [s, describeScope(s)])),
        },
      },
    },
    client_secret_basic: {
      type: 'http',
      scheme: 'basic',
      description:
        'OAuth client authentication (RFC 6749 §2.3.1): `client_id` and `client_secret`, each form-encoded, as ' +
        'Basic credentials. A client registered with `client_secret_post` sends both in the form instead, a ' +
        'public client (`none`) sends `client_id` only.',
    },
    registration_access_token: {
      type: 'http',
      scheme: 'bearer',
      description:
        'The registration access token (`polar_crt_…`) returned when the client was registered (RFC 7592 §1). ' +
        'The signed-in web user who registered the client may manage it without one.',
    },
  };
}

/**
 * The security requirements of an operation open to the given subjects with any one of the scopes:
 * one alternative per scope (OpenAPI lists what a requirement needs all of), the OAuth ones only for
 * scopes a client can be granted and subjects an OAuth token can be.
 */
export function securityOf(subjects: readonly string[], scopes: readonly string[]): Json[] {
  const alternatives: Json[] = [];
  const needs = scopes.length ? scopes.map(s => [s]) : [[]];
  for (const scopeSet of needs) alternatives.push({ bearer: scopeSet });
  if (subjects.includes('user') || subjects.includes('organization')) {
    for (const scopeSet of needs)
      if (scopeSet.every(s => SCOPES_SUPPORTED.includes(s))) alternatives.push({ oauth2: scopeSet });
  }
  if (subjects.includes('anonymous')) alternatives.push({});
  return alternatives;
}
