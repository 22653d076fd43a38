import type { GraphQLSchema } from 'graphql';
import type { Principal } from '../principal.js';

/**
 * What a gateway needs to run a subgraph in-process (embedded topology) and what a subgraph's own
 * HTTP server needs in the distributed one: its schema and a per-request context factory.
 */
export interface SubgraphRuntime<TContext = unknown> {
  name: string;
  schema: GraphQLSchema;
  createContext(principal: Principal, requestId: string): TContext;
}

/** The gateway's per-request context: who is calling, resolved once at the edge. */
export interface GatewayContext {
  principal: Principal;
  requestId: string;
}
