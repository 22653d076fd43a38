import type { Response } from 'express';
import { unavailableFor } from '../../kit/database/waits.js';
import { DomainError } from '../../kit/errors.js';

import type { GraphQLErrorLike } from '../upstream/gateway-client.js';

export type { GraphQLErrorLike };

const REALM = 'Bearer realm="polar"';
/** Seconds a client should wait before sending a request again after a 503 `ServiceUnavailable`. */
const RETRY_UNAVAILABLE_AFTER_S = 1;
/** The 5xx codes whose message is the wire's detail (they say what took too long, no internals). */
const SPOKEN_5XX = new Set(['ServiceUnavailable']);

/**
 * The one place that writes error bodies in docs/polar/errors.md's shapes. Everything else in the adapter
 * throws a DomainError or passes along the GraphQL error it got.
 */
export function sendError(res: Response, error: unknown): void {
  const { code, message, status, details } = normalise(error);
  res.status(status);
  switch (code) {
    case 'invalid_token':
      res.set({
        'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="${message}"`,
        'Cache-Control': 'no-store',
        Pragma: 'no-cache',
      });
      res.json({ error: 'invalid_token', error_description: message });
      return;
    case 'insufficient_scope': {
      const scopes = (details as { scopes?: string[] } | undefined)?.scopes ?? [];
      res.set(
        'WWW-Authenticate',
        `${REALM}, scope="${scopes.join(' ')}", error="insufficient_scope", error_description="${message}"`,
      );
      res.json({ error: 'insufficient_scope', error_description: message });
      return;
    }
    case 'Unauthorized':
      res.set('WWW-Authenticate', REALM);
      res.json({ error: 'Unauthorized', detail: 'Unauthorized' });
      return;
    case 'RequestValidationError':
    case 'PolarRequestValidationError':
      res.json({ error: code, detail: details ?? [] });
      return;
    case 'ServiceUnavailable':
      // A bounded wait ran out (kit/database/waits.ts): the detail says which, never the statement.
      res.set('Retry-After', String(RETRY_UNAVAILABLE_AFTER_S));
      res.json({ error: code, detail: message });
      return;
    default:
      // RFC 9110: every 401 names a scheme, also Polar's own 401 classes (an expired sign-in code).
      if (status === 401) res.set('WWW-Authenticate', REALM);
      if (status >= 500) {
        // NOTE: never echo the message of an unexpected error; it is in the logs with the request id.
        res.json({ error: 'InternalServerError', detail: 'An internal error occurred.' });
        return;
      }
      res.json({ error: code, detail: message });
  }
}

function normalise(error: unknown): { code: string; message: string; status: number; details?: unknown } {
  if (error instanceof DomainError)
    return { code: error.code, message: error.message, status: error.status, details: error.details };
  // A database wait that ran out in the adapter's own calls (resolving a bearer in-process).
  const unavailable = unavailableFor(error);
  if (unavailable) return normalise(unavailable);
  const gql = error as GraphQLErrorLike;
  const code = gql?.extensions?.code;
  const status = gql?.extensions?.http?.status;
  // Domain codes are class names (ResourceNotFound) or OAuth codes (invalid_token). Apollo's own
  // ALL_CAPS codes mean one of our fixed operations failed to validate: that is our bug, a 500.
  const isDomainCode = typeof code === 'string' && /^[A-Za-z_]+$/.test(code) && code !== code.toUpperCase();
  if (isDomainCode && typeof status === 'number' && (status < 500 || SPOKEN_5XX.has(code))) {
    return { code, message: gql.message, status, details: gql.extensions?.details };
  }
  return { code: 'InternalServerError', message: 'Internal server error', status: 500 };
}

/** FastAPI's bodies for routing failures (no `error` key). */
export function sendNotFound(res: Response): void {
  res.status(404).json({ detail: 'Not Found' });
}

export function sendMethodNotAllowed(res: Response, allowed: string[]): void {
  res.status(405).set('Allow', allowed.join(', ')).json({ detail: 'Method Not Allowed' });
}
