import type { Request, Response } from 'express';

/** The person behind a signed-in browser, as the request's principal tells it. */
export interface SignedInUser {
  id: string;
  /** The `user_sessions` row (for sign-out, and `auth_time`: its `createdAt`). */
  sessionId: string;
  /** Organizations the user is a member of. */
  organizationIds: string[];
}

/** The signed-in user when the request came with a live `polar_session` cookie; null otherwise. */
export function currentUser(req: Request): SignedInUser | null {
  const principal = req.principal;
  if (principal?.credential !== 'user_session' || principal.subject !== 'user' || !principal.subjectId) return null;
  return { id: principal.subjectId, sessionId: principal.tokenId ?? '', organizationIds: principal.organizationIds };
}

/**
 * True when someone is signed in. Otherwise answers with a 303 to `/login?return_to=<this page>`
 * (for a GET; other methods return to `/dashboard`, as the form that posted is gone) and returns false.
 */
export function requireSignIn(req: Request, res: Response): boolean {
  if (currentUser(req)) return true;
  const back = req.method === 'GET' || req.method === 'HEAD' ? safeReturnTo(req.originalUrl) : DEFAULT_RETURN_TO;
  res.redirect(303, loginUrl(back));
  return false;
}

/** Where a sign-in without `return_to` lands: the merchant dashboard (docs/dashboard.md#reaching-it). */
export const DEFAULT_RETURN_TO = '/dashboard';

/** `/login`, carrying where to go afterwards when that is not the default. */
export function loginUrl(returnTo: string = DEFAULT_RETURN_TO): string {
  return withReturnTo('/login', returnTo);
}

/** `path`, with `?return_to=` when `returnTo` is given and is not the default. */
export function withReturnTo(path: string, returnTo: string | undefined): string {
  return returnTo && returnTo !== DEFAULT_RETURN_TO ? `${path}?return_to=${encodeURIComponent(returnTo)}` : path;
}

const BASE = 'http://return-to.invalid';

/**
 * A same-origin path to redirect to after sign-in, or `fallback`. Refuses anything that a browser
 * could read as another origin: absolute and scheme-relative URLs (`//evil`, `/\evil`), backslashes,
 * control characters and whitespace.
 */
export function safeReturnTo(value: unknown, fallback: string = DEFAULT_RETURN_TO): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\s\x00-\x1f\x7f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  return path.startsWith('//') ? fallback : path;
}
