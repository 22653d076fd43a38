import type { GraphQLSchema } from 'graphql';
import { buildFederatedSchema } from '../../kit/graphql/federation.js';
import { resolversForSchema } from './resolvers.js';

export const WEBHOOKS_SUBGRAPH = 'webhooks';

/** The webhooks subgraph's executable schema (no I/O: the context brings the database). */
export function buildWebhooksSchema(): Promise<GraphQLSchema> {
  return buildFederatedSchema({ resolvers: resolversForSchema() }, {});
}
