import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema, builtOnce } from '../../kit/graphql/federation.js';
import { billingReferenceResolvers, resolversForSchema } from './resolvers.js';

export const BILLING_SUBGRAPH = 'billing';

/** The billing subgraph's executable schema (no I/O: the context brings the database), built once per process. */
export const buildBillingSchema: () => Promise<GraphQLSchema> = builtOnce(() =>
  buildFederatedSchema({ resolvers: resolversForSchema() }, billingReferenceResolvers),
);
