import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { NotPermitted } from '../../kit/errors.js';
import { CSRF_FIELD, CSRF_HEADER, csrfTokenMatches } from '../web-kit/csrf.js';
import { sendError } from '../v1/wire-errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The web session cookie makes a browser an API caller: `/v1/…` and `/graphql` accept it as they
 * accept a bearer. A browser attaches that cookie to requests other pages start too (SameSite=Lax
 * keeps it off cross-site sub-requests, but not off same-site ones: another port of this host, a
 * sibling subdomain), so a write authenticated by the cookie must show that this site's own page made
 * it: an `Origin` equal to the environment's public URL or to the origin the request was sent to,
 * `Sec-Fetch-Site: same-origin`, or the page's CSRF token (`X-CSRF-Token`, or the `csrf_token` field
 * of a form). Otherwise 403 `NotPermitted`, before the body is looked at. Bearer requests (the SDKs,
 * which send no `Origin`) are not concerned, nor the anonymous ones: they carry no ambient authority.
 * The rule and its companion (JSON bodies only, `app.ts`) are described in docs/web-pages.md#cookie-authenticated-api-requests.
 */
export function sameOriginWrites(options: { publicUrl?: string; inScope: (path: string) => boolean }): RequestHandler {
  const publicOrigin = options.publicUrl ? originOf(options.publicUrl) : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || req.principal?.credential !== 'user_session' || !options.inScope(req.path)) {
      next();
      return;
    }
    if (req.get('sec-fetch-site') === 'same-origin' || isSameOrigin(req, publicOrigin) || hasCsrfToken(req)) {
      next();
      return;
    }
    sendError(
      res,
      new NotPermitted(
        'A request signed in with the session cookie must come from this site: same-origin Origin, or the page’s CSRF token.',
      ),
    );
  };
}

function isSameOrigin(req: Request, publicOrigin: string | undefined): boolean {
  const sent = req.get('origin');
  if (!sent || sent === 'null') return false;
  const origin = originOf(sent);
  if (!origin) return false;
  if (origin === publicOrigin) return true;
  const host = req.get('host');
  return host !== undefined && origin === originOf(`${req.protocol}://${host}`);
}

function hasCsrfToken(req: Request): boolean {
  const body = req.body as Record<string, unknown> | undefined;
  const field = body && typeof body === 'object' && !Array.isArray(body) ? body[CSRF_FIELD] : undefined;
  return csrfTokenMatches(req, req.get(CSRF_HEADER) ?? field);
}

/** `scheme://host[:port]` with default ports dropped and the host lowercased; undefined when unparsable. */
function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
