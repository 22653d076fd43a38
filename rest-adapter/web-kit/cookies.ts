import type { CookieOptions, Request, Response } from 'express';
import { webSettingsOf } from './settings.js';

/**
 * The web sign-in cookie of production; `rest-adapter/app.ts` reads it into the request's principal.
 * Cookies ignore ports, so production and sandbox on one host (127.0.0.1:8000 and :8001) must not
 * share a name, or signing in to one would sign you out of the other: the sandbox's is
 * `polar_sandbox_session` (`sessionCookieName`).
 */
export const SESSION_COOKIE = 'polar_session';

/** The sign-in cookie of an environment: `polar_session`, or `polar_sandbox_session` in the sandbox. */
export function sessionCookieName(environment: string): string {
  return environment === 'sandbox' ? 'polar_sandbox_session' : SESSION_COOKIE;
}

/** The CSRF nonce cookie of an environment: `polar_csrf`, or `polar_sandbox_csrf` in the sandbox. */
export function csrfCookieName(environment: string): string {
  return environment === 'sandbox' ? 'polar_sandbox_csrf' : 'polar_csrf';
}

/** The value of one cookie of the request, or undefined. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, Path=/, and Secure when the public URL is https. */
export function cookieOptions(req: Request, maxAgeMs?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: webSettingsOf(req).secureCookies,
    ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }),
  };
}

/** Sets the session cookie for `lifetimeMs` (the session's expiry minus its creation, by the server's clock). */
export function setSessionCookie(req: Request, res: Response, rawToken: string, lifetimeMs: number): void {
  res.cookie(sessionCookieName(webSettingsOf(req).environment), rawToken, cookieOptions(req, Math.max(0, lifetimeMs)));
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(sessionCookieName(webSettingsOf(req).environment), cookieOptions(req));
}
