import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieOptions, csrfCookieName, readCookie } from './cookies.js';
import { webSettingsIfConfigured, webSettingsOf } from './settings.js';

/**
 * CSRF protection for the form posts of the pages: a signed double submit bound to the session.
 *
 * A random nonce lives in the `polar_csrf` cookie (`polar_sandbox_csrf` in the sandbox; HttpOnly,
 * SameSite=Lax); every form carries
 * `csrf_token = HMAC(key, environment | nonce | session id)`. A post is accepted only when the field
 * matches the cookie's nonce and the session the request comes with, so a token cannot be forged
 * without the server key, nor reused after sign-in or sign-out, nor across environments. Browsers that
 * say the request is cross-site (`Sec-Fetch-Site`) are refused outright.
 */
/** What every page says when a form's CSRF token does not check out (expired, or posted from elsewhere). */
export const FORM_EXPIRED = 'This form has expired or did not come from this site. Please try again.';

export const CSRF_FIELD = 'csrf_token';
/** Production's name; `csrfCookieName(environment)` gives each environment its own. */
export const CSRF_COOKIE = csrfCookieName('production');
const NONCE = /^[A-Za-z0-9_-]{43}$/;
const nonceKey = Symbol('csrfNonce');

/** The token to put in the hidden `csrf_token` input of a form rendered for this request. */
export function issueCsrfToken(req: Request, res: Response): string {
  const locals = res.locals as { [nonceKey]?: string };
  const cookie = csrfCookieName(webSettingsOf(req).environment);
  let nonce = locals[nonceKey] ?? readCookie(req, cookie);
  if (!nonce || !NONCE.test(nonce)) {
    nonce = randomBytes(32).toString('base64url');
    res.cookie(cookie, nonce, cookieOptions(req));
  }
  locals[nonceKey] = nonce;
  return tokenFor(req, nonce);
}

/** True when the posted `csrf_token` belongs to this browser and session. Call before any change. */
export function verifyCsrf(req: Request): boolean {
  const body = req.body as Record<string, unknown> | undefined;
  return csrfTokenMatches(req, body && typeof body === 'object' ? body[CSRF_FIELD] : undefined);
}

/**
 * The header a script of this site may send the page's `csrf_token` in, for a JSON request made with
 * the session cookie (`rest-adapter/guards/same-origin-writes.ts`).
 */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * True when `sent` is the token of this browser (its nonce cookie) and session. False when the app
 * serves no pages (no key to check with), and for a browser that says the request is cross-site.
 */
export function csrfTokenMatches(req: Request, sent: unknown): boolean {
  if (req.get('sec-fetch-site') === 'cross-site' || !webSettingsIfConfigured(req)) return false;
  const nonce = readCookie(req, csrfCookieName(webSettingsOf(req).environment));
  if (!nonce || !NONCE.test(nonce) || typeof sent !== 'string') return false;
  const expected = Buffer.from(tokenFor(req, nonce));
  const actual = Buffer.from(sent);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function tokenFor(req: Request, nonce: string): string {
  const settings = webSettingsOf(req);
  // Bound to the sign-in of the page: a user's web session, or a customer's portal session.
  const credential = req.principal?.credential;
  const session =
    credential === 'user_session' || credential === 'customer_session' ? (req.principal.tokenId ?? '') : '';
  return createHmac('sha256', settings.csrfKey)
    .update(`${settings.environment}|${nonce}|${session}`)
    .digest('base64url');
}
