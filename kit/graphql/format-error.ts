import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unavailableFor } from '../database/waits.js';
import { DomainError } from '../errors.js';

/**
 * The one place a thrown error becomes a GraphQL error. Domain errors keep their class name as
 * `extensions.code` and their status as `extensions.http.status`; a database wait that ran out
 * (kit/database/waits.ts) becomes 503 `ServiceUnavailable`; anything else is an internal error whose
 * message never leaves the process (it is logged by the caller).
 */
export function toGraphQLError(error: unknown): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof DomainError) {
    return new GraphQLError(original.message, {
      extensions: {
        code: original.code,
        http: { status: original.status },
        ...(original.details === undefined ? {} : { details: original.details }),
      },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) return error; // parse/validation errors
  // A bounded database wait that ran out is the service's load, not a bug: 503, retryable.
  const unavailable = unavailableFor(original);
  if (unavailable) return toGraphQLError(unavailable);
  return new GraphQLError('Internal server error', {
    extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } },
  });
}

/**
 * `formatError` hook for a GraphQL server (subgraph or gateway). Domain errors are mapped here;
 * errors that already carry a code (a subgraph's domain error passing through the gateway, or
 * Apollo's own validation errors) keep their code and status; anything else is masked.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const domain = original instanceof DomainError ? original : unavailableFor(original);
  if (domain) {
    const mapped = toGraphQLError(domain);
    return {
      message: mapped.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: mapped.extensions,
    };
  }
  const extensions = formatted.extensions as { code?: unknown; details?: unknown } | undefined;
  // Apollo Server consumes `extensions.http` (it sets the response status from it) and strips it from
  // `formatted`; the error object still has it, and our clients (the REST adapter) need it.
  const status =
    error instanceof GraphQLError ? (error.extensions?.http as { status?: number } | undefined)?.status : undefined;
  if (typeof extensions?.code === 'string' && extensions.code !== 'INTERNAL_SERVER_ERROR') {
    return {
      message: formatted.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: extensions.code,
        http: { status: status ?? 400 },
        ...(extensions.details === undefined ? {} : { details: extensions.details }),
      },
    };
  }
  return {
    message: 'Internal server error',
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } },
  };
}
