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
 * so the generator (openapi.ts) need not know about either.
 */
export function documentRequestGuards<T extends Record<string, unknown>>(document: T): T {
  const paths = document.paths as Record<string, Record<string, any>>;
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      operation.responses = { ...operation.responses, 429: TOO_MANY_REQUESTS };
      if (method === 'post') operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
    }
  }
  return document;
}
