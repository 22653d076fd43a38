import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../kit/graphql/federation.js';
import { billingReferenceResolvers, resolversForSchema } from './resolvers.js';

export const BILLING_SUBGRAPH = 'billing';

/** The billing subgraph's executable schema (no I/O: the context brings the database). */
export function buildBillingSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: resolversForSchema() }, billingReferenceResolvers);
}
