import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import { idInputError } from './id-input.js';
import { nulInputError } from './nul-input.js';

/**
 * The input a subgraph refuses before executing, whoever sends it (a GraphQL client through the
 * gateway, or the REST adapter, which has checked the same already): a NUL in a string
 * (kit/graphql/nul-input.ts) or an id that is not a UUID (kit/graphql/id-input.ts). Both would
 * otherwise fail in PostgreSQL and come back as a masked internal error.
 */
export function refusedInput(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables?: Record<string, unknown>,
): GraphQLError | undefined {
  return nulInputError(document, variables) ?? idInputError(schema, document, variables);
}
