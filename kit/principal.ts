import { createHmac, timingSafeEqual } from 'node:crypto';
import { effectiveScopes } from './scopes.js';

/**
 * Who is calling, resolved once per request from the bearer (docs/polar/auth.md#bearer-resolution). Subgraphs only ever
 * see this, never the raw token.
 */
export type SubjectKind = 'user' | 'organization' | 'customer' | 'anonymous';

export interface Principal {
  subject: SubjectKind;
  /** User, organization or customer id; null for anonymous. */
  subjectId: string | null;
  /** What kind of credential produced the principal (for rate limiting and user-only endpoints). */
  credential:
    | 'personal_access_token'
    | 'organization_access_token'
    | 'oauth2_token'
    | 'user_session'
    | 'customer_session'
    | 'none';
  scopes: string[];
  /** Organizations the principal may act for. For users: their memberships (∩ token down-scope). */
  organizationIds: string[];
  /**
   * The one organization this request acts for, named by its `Polar-Organization` header; `organizationIds`
   * is then narrowed to it (kit/database/tenant-scope.ts `actingFor`, docs/principals.md#polar-organization).
   */
  actingOrganizationId?: string | null;
  /** The token row behind the principal, so a revocation can drop it from caches. */
  tokenId: string | null;
  /** OAuth client the token was issued to, when the credential is an OAuth token. */
  clientId?: string | null;
  /** For users: their e-mail (user-specific endpoints match them as a customer by it). */
  email?: string | null;
}

export const ANONYMOUS: Principal = Object.freeze({
  subject: 'anonymous',
  subjectId: null,
  credential: 'none',
  scopes: [],
  organizationIds: [],
  tokenId: null,
}) as Principal;

export function hasAnyScope(principal: Principal, accepted: readonly string[]): boolean {
  let granted = grantedScopes.get(principal.scopes);
  if (!granted) {
    granted = effectiveScopes(principal.scopes);
    grantedScopes.set(principal.scopes, granted);
  }
  return accepted.some(s => granted.has(s));
}

/**
 * Expanded scope sets by scope array: a cached principal keeps its array across requests, so the
 * expansion (60-odd scopes for a full token) runs once per principal, not on every check. Principals
 * are never mutated in place (a change of scopes makes a new principal).
 */
const grantedScopes = new WeakMap<readonly string[], Set<string>>();

/**
 * The principal as it travels between processes in the distributed topology:
 * `base64url(json).issuedAtSeconds.hmac`. A subgraph refuses a request whose header is missing,
 * forged or older than `maxAgeSeconds`.
 */
export const PRINCIPAL_HEADER = 'x-billing-principal';

export function signPrincipal(principal: Principal, key: string, nowMs = Date.now()): string {
  const payload = Buffer.from(JSON.stringify(principal)).toString('base64url');
  const issued = Math.floor(nowMs / 1000).toString();
  const mac = createHmac('sha256', key).update(`${payload}.${issued}`).digest('base64url');
  return `${payload}.${issued}.${mac}`;
}

export function verifyPrincipal(
  header: string | undefined,
  key: string,
  nowMs = Date.now(),
  maxAgeSeconds = 60,
): Principal | null {
  if (!header) return null;
  const [payload, issued, mac] = header.split('.');
  if (!payload || !issued || !mac) return null;
  const expected = createHmac('sha256', key).update(`${payload}.${issued}`).digest('base64url');
  const a = Buffer.from(mac);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  const age = nowMs / 1000 - Number(issued);
  if (!Number.isFinite(age) || age > maxAgeSeconds || age < -maxAgeSeconds) return null;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Principal;
  } catch {
    return null;
  }
}

/** Turns the `Authorization` header (and, for web pages, a session cookie) into a principal. */
export interface PrincipalResolver {
  /** @throws InvalidToken for an unknown, expired, revoked or malformed bearer. */
  resolve(authorization: string | undefined, sessionToken?: string): Promise<Principal>;
}

/** `Bearer <token>` → token; any other scheme (or none) → undefined. Polar reads only Bearer. */
export function bearerOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const space = authorization.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = authorization.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return undefined;
  return authorization.slice(space + 1).trim();
}
