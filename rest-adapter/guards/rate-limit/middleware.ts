import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../../kit/logger.js';
import type { RateLimiter } from './rate-limiter.js';

/** The client's address: the socket's peer (Express's `trust proxy` decides whether X-Forwarded-For counts). */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** The per-address limit, mounted before the body is read. */
export function addressRateLimit(limiter: RateLimiter, logger: Logger): RequestHandler {
  return guarded(logger, req => limiter.checkAddress(req.path, clientAddress(req)));
}

/** The caller's limits, mounted once the principal is known. */
export function callerRateLimit(limiter: RateLimiter, logger: Logger): RequestHandler {
  return guarded(logger, req => limiter.checkCaller(req.method, req.path, req.principal, clientAddress(req)));
}

function guarded(logger: Logger, check: (req: Request) => Promise<number | null>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    let retryAfter: number | null;
    try {
      retryAfter = await check(req);
    } catch (error) {
      // Counting must never take the API down: an unexpected failure lets the request through.
      logger.error({ err: error, requestId: req.requestId }, 'rate limit check failed');
      retryAfter = null;
    }
    if (retryAfter === null) {
      next();
      return;
    }
    sendTooManyRequests(res, retryAfter);
  };
}

/** docs/polar/errors.md: 429, an empty body (no content type), `Retry-After` in seconds. */
export function sendTooManyRequests(res: Response, retryAfterSeconds: number): void {
  res.status(429).set('Retry-After', String(retryAfterSeconds));
  res.removeHeader('Content-Type');
  res.end();
}
