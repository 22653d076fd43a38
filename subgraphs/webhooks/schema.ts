import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema, builtOnce } from '../../kit/graphql/federation.js';
import { resolversForSchema } from './resolvers.js';

export const WEBHOOKS_SUBGRAPH = 'webhooks';

/** The webhooks subgraph's executable schema (no I/O: the context brings the database), built once per process. */
export const buildWebhooksSchema: () => Promise<GraphQLSchema> = builtOnce(() =>
  buildFederatedSchema({ resolvers: resolversForSchema() }, {}),
);
