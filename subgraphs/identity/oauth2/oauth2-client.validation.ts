import { AUTH_METHODS, GRANT_TYPES, SCOPES_SUPPORTED, SUB_TYPES } from './oauth2.constants.js';
import type { ApplicationType, SubType, TokenEndpointAuthMethod } from './oauth2-client.entity.js';
import { invalidClientMetadata, invalidRedirectUri } from './oauth2.errors.js';

/** Client metadata as registered (RFC 7591 §2, docs/polar/resources.md#oauth-client-schemas OAuth2ClientConfiguration), normalised. */
export interface ClientMetadata {
  redirectUris: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: string[];
  responseTypes: string[];
  scopes: string[];
  clientName: string;
  clientUri: string | null;
  logoUri: string | null;
  tosUri: string | null;
  policyUri: string | null;
  defaultSubType: SubType;
  applicationType: ApplicationType;
}

const MAX_URL_LENGTH = 2083;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * RFC 9700 §2.1 / §4.1 and RFC 8252 §7.3: a redirect URI is an absolute `https` URL, or `http` on a
 * loopback host (native apps); no fragment (RFC 6749 §3.1.2), no user info, no wildcard.
 */
export function checkRedirectUri(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) {
    throw invalidRedirectUri('Each redirect URI must be a non-empty string of at most 2083 characters.');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRedirectUri(`${value} is not an absolute URL.`);
  }
  if (value.includes('#')) throw invalidRedirectUri(`${value} must not contain a fragment.`);
  if (url.username || url.password) throw invalidRedirectUri(`${value} must not contain user information.`);
  if (value.includes('*')) throw invalidRedirectUri(`${value} must not contain a wildcard.`);
  if (url.protocol === 'https:' && url.hostname) return value;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return value;
  throw invalidRedirectUri(`${value} must use https (http is only allowed on a loopback address).`);
}

const LOOPBACK_IP_URL = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::\d{1,5})?([/?].*)?$/;

/**
 * Exact string comparison (RFC 9700 §4.1.3), as Polar does, with the one exception RFC 8252 §7.3
 * requires: a loopback IP redirect URI of a client registered as a native app (`application_type:
 * "native"`) matches with any port, since the app listens on whatever port the OS gives it. A web
 * client (the default) gets no such latitude: another port on its host may be another program.
 */
export function redirectUriMatches(
  registered: readonly string[],
  requested: string,
  applicationType: ApplicationType,
): boolean {
  if (registered.includes(requested)) return true;
  if (applicationType !== 'native') return false;
  const asked = LOOPBACK_IP_URL.exec(requested);
  if (!asked) return false;
  return registered.some(uri => {
    const known = LOOPBACK_IP_URL.exec(uri);
    return known !== null && known[1] === asked[1] && (known[2] ?? '') === (asked[2] ?? '');
  });
}

function optionalUrl(body: Record<string, unknown>, key: string): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length < 1 || value.length > MAX_URL_LENGTH) {
    throw invalidClientMetadata(`${key} must be a URL of 1 to 2083 characters.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidClientMetadata(`${key} must be an absolute URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalidClientMetadata(`${key} must be an http(s) URL.`);
  return value;
}

function stringArray(
  body: Record<string, unknown>,
  key: string,
  fallback: readonly string[],
  allowed: readonly string[],
): string[] {
  const value = body[key];
  if (value === undefined || value === null) return [...fallback];
  if (!Array.isArray(value) || value.length === 0 || value.some(v => typeof v !== 'string')) {
    throw invalidClientMetadata(`${key} must be a non-empty array of strings.`);
  }
  const unknown = value.filter(v => !allowed.includes(v));
  if (unknown.length)
    throw invalidClientMetadata(
      `${key} has unsupported values: ${unknown.join(', ')}. Supported: ${allowed.join(', ')}.`,
    );
  return [...new Set(value as string[])];
}

/**
 * Validates a registration (or RFC 7592 update) body. Unknown members are ignored (RFC 7591 §2);
 * omitted ones take their defaults (on an update too: RFC 7592 §2.2 replaces the whole metadata).
 */
export function parseClientMetadata(input: unknown): ClientMetadata {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw invalidClientMetadata('The body must be a JSON object of client metadata.');
  const body = input as Record<string, unknown>;

  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    throw invalidRedirectUri('redirect_uris must be a non-empty array of URLs.');
  const redirectUris = [...new Set(uris.map(checkRedirectUri))];

  const clientName = body.client_name;
  if (typeof clientName !== 'string' || clientName.trim().length === 0 || clientName.length > 255) {
    throw invalidClientMetadata('client_name is required (1 to 255 characters).');
  }

  const method = body.token_endpoint_auth_method ?? 'client_secret_post';
  if (typeof method !== 'string' || !(AUTH_METHODS as readonly string[]).includes(method)) {
    throw invalidClientMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`);
  }

  const grantTypes = stringArray(body, 'grant_types', GRANT_TYPES, GRANT_TYPES);
  if (!grantTypes.includes('authorization_code'))
    throw invalidClientMetadata('grant_types must include authorization_code.');
  const responseTypes = stringArray(body, 'response_types', ['code'], ['code']);

  let scopes: string[] = [...SCOPES_SUPPORTED];
  if (body.scope !== undefined && body.scope !== null) {
    if (typeof body.scope !== 'string') throw invalidClientMetadata('scope must be a space-separated string.');
    scopes = [...new Set(body.scope.split(' ').filter(Boolean))];
    const unknown = scopes.filter(s => !SCOPES_SUPPORTED.includes(s));
    if (unknown.length) throw invalidClientMetadata(`Unsupported scopes: ${unknown.join(', ')}.`);
    if (scopes.length === 0) throw invalidClientMetadata('scope must name at least one scope.');
  }

  const subType = body.default_sub_type ?? 'user';
  if (typeof subType !== 'string' || !(SUB_TYPES as readonly string[]).includes(subType)) {
    throw invalidClientMetadata('default_sub_type must be user or organization.');
  }

  const applicationType = body.application_type ?? 'web';
  if (applicationType !== 'web' && applicationType !== 'native') {
    throw invalidClientMetadata('application_type must be web or native.');
  }

  return {
    redirectUris,
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    grantTypes,
    responseTypes,
    scopes,
    clientName: clientName.trim(),
    clientUri: optionalUrl(body, 'client_uri'),
    logoUri: optionalUrl(body, 'logo_uri'),
    tosUri: optionalUrl(body, 'tos_uri'),
    policyUri: optionalUrl(body, 'policy_uri'),
    defaultSubType: subType as SubType,
    applicationType,
  };
}
