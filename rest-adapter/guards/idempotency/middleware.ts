import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError, RequestValidationError } from '../../../kit/errors.js';
import type { Logger } from '../../../kit/logger.js';
import type { Principal } from '../../../kit/principal.js';
import { sendError } from '../../v1/wire-errors.js';
import type { IdempotencyStore, StoredResponse } from './store.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
const MAX_KEY_LENGTH = 255;

/** The first request with the key has not finished (Stripe's `idempotency_key_in_use`). */
export class IdempotencyKeyInUse extends DomainError {
  constructor() {
    super(
      'IdempotencyKeyInUse',
      'A request with this Idempotency-Key is still being processed. Retry once it has finished.',
      409,
    );
  }
}

/** The key was first used with another method, path or body. */
export class IdempotencyKeyReused extends DomainError {
  constructor() {
    super(
      'IdempotencyKeyReused',
      'This Idempotency-Key was already used with different parameters. Use a new key for a different request.',
      422,
    );
  }
}

/** The tenant a key belongs to; anonymous callers have none, and their keys are ignored. */
export function idempotencyScopeOf(principal: Principal | undefined): string | null {
  if (!principal?.subjectId || principal.subject === 'anonymous') return null;
  return `${principal.subject}:${principal.subjectId}`;
}

/** What "the same request" means: method, path with query, and the parsed body. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, url, body ?? null]))
    .digest('base64url');
}

/**
 * Stripe's idempotent requests (docs/reliability.md#idempotency-keys) on every POST of the documented API: the first
 * result, status and body, is stored and replayed with `Idempotent-Replayed: true` for 24 hours; the
 * same key with other parameters is 422 IdempotencyKeyReused; while the first request runs, 409
 * IdempotencyKeyInUse. A 5xx is not stored, so the key can be retried. Mounted after the principal
 * and the rate limits (a 429 is not stored either).
 */
export function idempotencyKeys(
  store: IdempotencyStore,
  isApiPath: (path: string) => boolean,
  logger: Logger,
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.method === 'POST' ? req.get(IDEMPOTENCY_HEADER) : undefined;
    const scope = key === undefined ? null : idempotencyScopeOf(req.principal);
    if (key === undefined || !scope || !isApiPath(req.path)) {
      next();
      return;
    }
    try {
      if (key.length === 0 || key.length > MAX_KEY_LENGTH) throw invalidKey(key);
      const claim = await store.claim(scope, key, fingerprintOf(req.method, req.originalUrl, req.body));
      switch (claim.outcome) {
        case 'replay':
          replay(res, claim.response);
          return;
        case 'in_progress':
          throw new IdempotencyKeyInUse();
        case 'mismatch':
          throw new IdempotencyKeyReused();
      }
      recordOnEnd(res, claim, error =>
        logger.error({ err: error, requestId: req.requestId }, 'idempotency key result not stored'),
      );
      next();
    } catch (error) {
      if (!(error instanceof DomainError)) logger.error({ err: error, requestId: req.requestId }, 'idempotency failed');
      sendError(res, error);
    }
  };
}

function invalidKey(key: string): RequestValidationError {
  return new RequestValidationError([
    key.length === 0
      ? {
          type: 'string_too_short',
          loc: ['header', 'idempotency-key'],
          msg: 'String should have at least 1 character',
          input: key,
          ctx: { min_length: 1 },
        }
      : {
          type: 'string_too_long',
          loc: ['header', 'idempotency-key'],
          msg: `String should have at most ${MAX_KEY_LENGTH} characters`,
          input: key,
          ctx: { max_length: MAX_KEY_LENGTH },
        },
  ]);
}

function replay(res: Response, stored: StoredResponse): void {
  res.status(stored.status).set(REPLAYED_HEADER, 'true');
  if (stored.contentType) res.set('Content-Type', stored.contentType);
  res.end(stored.body);
}

/**
 * Every response of a route ends in one `res.end(body)` (`res.json`/`res.send` call it): the result is
 * stored there, and only then sent, so a client that retries after the answer always finds it.
 */
function recordOnEnd(
  res: Response,
  claim: { complete(response: StoredResponse): Promise<void>; release(): Promise<void> },
  onError: (error: unknown) => void,
): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    const [chunk, encoding] = args;
    const body =
      chunk === undefined || chunk === null || typeof chunk === 'function'
        ? Buffer.alloc(0)
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    const settled =
      res.statusCode >= 500
        ? claim.release()
        : claim.complete({ status: res.statusCode, contentType: res.get('Content-Type') ?? null, body });
    settled.catch(onError).finally(() => end(...args));
    return res;
  }) as Response['end'];
}
