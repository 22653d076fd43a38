import { GRANTABLE_SCOPES } from '../../../kit/scopes.js';

/**
 * Lifetimes (docs/polar/auth.md#oauth-and-oidc-server: authlib's defaults, which Polar keeps). `expires_in` is in seconds.
 * A refresh token is good for 30 days from its issue; every refresh issues a new one, so a grant that is
 * used stays alive and one left alone for 30 days ends (RFC 9700 §4.14.2: expire after inactivity).
 */
export const AUTHORIZATION_CODE_TTL_SECONDS = 300;
export const ACCESS_TOKEN_TTL_SECONDS = { authorization_code: 864_000, refresh_token: 3_600 } as const;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const ID_TOKEN_TTL_SECONDS = 3_600;

/** Retired signing keys stay in the JWKS this long: longer than any id_token they signed lives. */
export const RETIRED_KEY_PUBLISHED_SECONDS = 7 * 24 * 3600;

/** What discovery advertises and a client may register (docs/polar/auth.md#scopes). */
export const SCOPES_SUPPORTED: readonly string[] = GRANTABLE_SCOPES;

export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;
export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export const SUB_TYPES = ['user', 'organization'] as const;
export const CODE_CHALLENGE_METHODS = ['S256', 'plain'] as const;
export const PROMPT_VALUES = ['none', 'login', 'consent', 'select_account'] as const;

/** Scope → words shown on the consent page (Polar's `scope_display_names`). */
export function describeScope(scope: string): string {
  const fixed: Record<string, string> = {
    openid: 'Know who you are (OpenID)',
    profile: 'Read your profile',
    email: 'Read your e-mail address',
    'user:read': 'Read your user account',
    'user:write': 'Change your user account',
  };
  if (fixed[scope]) return fixed[scope];
  const [resource, access] = scope.split(':');
  const noun = resource.replace(/_/g, ' ');
  if (access === 'read') return `Read ${noun}`;
  if (access === 'write') return `Create, change and delete ${noun}`;
  return scope;
}
