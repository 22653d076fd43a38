import type { CookieOptions, Request, Response } from 'express';
import { webSettingsOf } from './settings.js';

/** The web sign-in cookie; `rest-adapter/app.ts` reads it into the request's principal. */
export const SESSION_COOKIE = 'polar_session';

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

/** Sets `polar_session` for `lifetimeMs` (the session's expiry minus its creation, by the server's clock). */
export function setSessionCookie(req: Request, res: Response, rawToken: string, lifetimeMs: number): void {
  res.cookie(SESSION_COOKIE, rawToken, cookieOptions(req, Math.max(0, lifetimeMs)));
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}
