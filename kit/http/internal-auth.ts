import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The internal, non-GraphQL principal endpoint of a subgraph process (distributed topology): the REST adapter
 * turns `Authorization` / the session cookie into a principal here, once per request (and caches it
 * briefly). The request is authenticated by an HMAC, with the internal key, of
 * `METHOD \n path \n timestamp \n rawBody`; a timestamp more than INTERNAL_MAX_SKEW_SECONDS away from
 * the receiver's clock is refused, so a captured request cannot be replayed later or against another
 * path.
 *
 * This module is pure (no ORM, no server) so the REST adapter can import it as the client side of the
 * contract.
 */
export const INTERNAL_PRINCIPAL_PATH = '/internal/principal';
export const INTERNAL_SIGNATURE_HEADER = 'x-internal-signature';
export const INTERNAL_TIMESTAMP_HEADER = 'x-internal-timestamp';
export const INTERNAL_MAX_SKEW_SECONDS = 30;

/** Body of POST /internal/principal. */
export interface PrincipalRequestBody {
  authorization?: string;
  session?: string;
}

/** A domain error as it crosses the process boundary (same fields as kit/errors.ts DomainError). */
export interface WireDomainError {
  code: string;
  message: string;
  status: number;
  details?: unknown;
}

function mac(method: string, path: string, timestamp: string, body: string, key: string): string {
  return createHmac('sha256', key)
    .update(`${method.toUpperCase()}\n${path}\n${timestamp}\n${body}`)
    .digest('base64url');
}

/** Headers to send with an internal request whose raw body is `body`. */
export function signInternalRequest(
  method: string,
  path: string,
  body: string,
  key: string,
  nowMs = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000).toString();
  return {
    [INTERNAL_TIMESTAMP_HEADER]: timestamp,
    [INTERNAL_SIGNATURE_HEADER]: mac(method, path, timestamp, body, key),
  };
}

export function verifyInternalRequest(
  request: { method: string; path: string; body: string; timestamp: string | undefined; signature: string | undefined },
  key: string,
  nowMs = Date.now(),
  maxSkewSeconds = INTERNAL_MAX_SKEW_SECONDS,
): boolean {
  const { timestamp, signature } = request;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  const skew = Math.abs(nowMs / 1000 - Number(timestamp));
  if (!(skew <= maxSkewSeconds)) return false;
  const expected = Buffer.from(mac(request.method, request.path, timestamp, request.body, key));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
