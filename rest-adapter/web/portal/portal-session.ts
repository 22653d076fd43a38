import type { Request, Response } from 'express';
import { cookieOptions, readCookie } from '../../web-kit/cookies.js';
import { webSettingsOf } from '../../web-kit/settings.js';

/**
 * The portal's sign-in: the customer session token (`polar_cst_`, one hour) in an HttpOnly cookie
 * scoped to the organization's portal (`Path=/portal/<slug>`), so a browser may be signed in to the
 * portals of several sellers at once and no other page of the site ever receives it. Production and
 * sandbox have their own names (cookies ignore ports). The token itself never stays in a URL: a link
 * with `?customer_session_token=` is answered with this cookie and a redirect to the same page without it.
 */
export const TOKEN_PARAM = 'customer_session_token';

export function portalCookieName(environment: string): string {
  return environment === 'sandbox' ? 'polar_sandbox_portal_session' : 'polar_portal_session';
}

export function portalBase(slug: string): string {
  return `/portal/${encodeURIComponent(slug)}`;
}

export function readPortalToken(req: Request): string | undefined {
  return readCookie(req, portalCookieName(webSettingsOf(req).environment));
}

export function setPortalToken(req: Request, res: Response, slug: string, token: string): void {
  res.cookie(portalCookieName(webSettingsOf(req).environment), token, {
    ...cookieOptions(req),
    path: portalBase(slug),
  });
}

export function clearPortalToken(req: Request, res: Response, slug: string): void {
  res.clearCookie(portalCookieName(webSettingsOf(req).environment), { ...cookieOptions(req), path: portalBase(slug) });
}

/** This request's URL without the token (and Polar's `email` hint that travels with it). */
export function withoutToken(originalUrl: string): string {
  const url = new URL(originalUrl, 'http://portal.invalid');
  url.searchParams.delete(TOKEN_PARAM);
  url.searchParams.delete('email');
  const search = url.searchParams.toString();
  return url.pathname + (search ? `?${search}` : '');
}
