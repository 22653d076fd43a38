import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../../kit/logger.js';
import type { OAuth2Provider, OAuthFormRequest, OAuthHttpResult } from '../../subgraphs/identity/contract.js';

/** What every group of OAuth routes works with: identity's provider, the issuer, the error boundary. */
export interface OAuthRouteKit {
  provider: OAuth2Provider;
  /** The issuer: the public URL of this environment (PUBLIC_URL / SANDBOX_PUBLIC_URL). */
  issuer: string;
  /** Wraps a handler so that a failure is logged and answered with OAuth's `server_error`. */
  endpoint(handler: (req: Request, res: Response) => Promise<void>): RequestHandler;
}

/** Writes the provider's answer as it is: status, headers, JSON body (or none). */
export function sendOAuth(res: Response, result: OAuthHttpResult): void {
  res.status(result.status);
  if (result.headers) res.set(result.headers);
  if (result.body === undefined) res.end();
  else res.json(result.body);
}

export function oauthEndpoint(logger: Logger): OAuthRouteKit['endpoint'] {
  return handler => async (req, res) => {
    try {
      await handler(req, res);
    } catch (error) {
      logger.error({ err: error, requestId: req.requestId }, 'oauth2 endpoint failed');
      if (res.headersSent) return;
      res
        .status(500)
        .set({ 'Cache-Control': 'no-store' })
        .json({ error: 'server_error', error_description: 'The server could not complete the request.' });
    }
  };
}

/** A form post as the OAuth services read it: one value per key, repeated keys listed. */
export function formRequest(req: Request): OAuthFormRequest {
  const raw =
    req.body && typeof req.body === 'object' && !Array.isArray(req.body) && req.is('application/x-www-form-urlencoded')
      ? (req.body as Record<string, unknown>)
      : {};
  const body: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (Array.isArray(value)) {
      repeated.push(key);
      if (typeof value[0] === 'string') body[key] = value[0];
    } else if (typeof value === 'string') {
      body[key] = value;
    }
  }
  const queryKeys = [...new URL(req.originalUrl, 'http://local').searchParams.keys()];
  return { authorization: req.get('authorization'), contentType: req.get('content-type'), body, repeated, queryKeys };
}
