import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency/middleware.js';

const TOO_MANY_REQUESTS = {
  description:
    'Rate limited (300 requests per minute per organization, customer or OAuth client; 100 per second per address). Empty body.',
  headers: {
    'Retry-After': {
      description: 'Seconds to wait before the next request is accepted.',
      schema: { type: 'integer', minimum: 1 },
    },
  },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description: `Makes the request safe to retry: its first result (status and body) is stored for 24 hours and replayed, with \`${REPLAYED_HEADER}: true\`, to a request with the same key; the same key with other parameters is 422 IdempotencyKeyReused, and while the first request runs, 409 IdempotencyKeyInUse. Keys are per organization, user or customer; a 5xx is not stored.`,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/**
 * Adds what the request guards answer to the generated OpenAPI document: a 429 with `Retry-After` on
 * every operation, and the `Idempotency-Key` header on every POST. A pass over the finished document,
 * so the generator (openapi.ts) need not know about either. It returns a new document and leaves the given
 * one as it was: some of its operations are module constants (the OAuth and GraphQL endpoints'), and adding
 * to them in place gave the second document built in a process (`npm start` builds one per environment)
 * a second `Idempotency-Key` on each of them.
 */
export function documentRequestGuards<T extends Record<string, unknown>>(document: T): T {
  const paths = document.paths as Record<string, Record<string, any>>;
  const guarded = Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          {
            ...operation,
            responses: { ...operation.responses, 429: TOO_MANY_REQUESTS },
            ...(method === 'post' && { parameters: [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER] }),
          },
        ]),
      ),
    ]),
  );
  return { ...document, paths: guarded };
}
