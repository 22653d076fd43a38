import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError } from '../errors.js';

/**
 * The one place a thrown error becomes a GraphQL error. Domain errors keep their class name as
 * `extensions.code` and their status as `extensions.http.status`; anything else is an internal error
 * whose message never leaves the process (it is logged by the caller).
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
  return new GraphQLError('Internal server error', {
    extensions: { code: 'INTERNAL_SERVER_ERROR', http: { status: 500 } },
  });
}

/** `formatError` hook for a GraphQL server: maps via `toGraphQLError`, keeps path and locations. */
export function formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const mapped = toGraphQLError(error);
  const code = formatted.extensions?.code;
  if (mapped.extensions.code === 'INTERNAL_SERVER_ERROR' && typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
    // Apollo's own client errors (GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT...) are safe to show.
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code, http: { status: 400 } } };
  }
  return {
    message: mapped.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: mapped.extensions,
  };
}
