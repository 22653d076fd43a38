import { readFileSync } from 'node:fs';
import { ApolloGateway, type GraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { formatError } from '../kit/graphql/format-error.js';
import { queryLimitRules, type QueryLimits } from '../kit/graphql/limits.js';
import type { GatewayContext } from '../kit/graphql/subgraph-runtime.js';

export const SUPERGRAPH_PATH = new URL('../schema/supergraph.graphql', import.meta.url);

/** Reads the committed, statically composed supergraph (never composed at run time). */
export function readSupergraph(path: URL | string = SUPERGRAPH_PATH): string {
  return readFileSync(path, 'utf8');
}

export interface GatewayOptions {
  supergraphSdl: string;
  /** One data source per subgraph name: in-process (embedded) or signed HTTP (distributed). */
  dataSources: Record<string, GraphQLDataSource>;
  limits: QueryLimits;
  introspection?: boolean;
}

/**
 * The Apollo gateway wrapped in an Apollo Server that is never bound to a port: the REST adapter
 * and the `/graphql` route execute operations on it directly, so the embedded topology pays no HTTP
 * hop, and Apollo's document cache and the gateway's query-plan cache apply to both.
 */
export async function createGateway(options: GatewayOptions): Promise<ApolloServer<GatewayContext>> {
  const gateway = new ApolloGateway({
    supergraphSdl: options.supergraphSdl,
    // The committed supergraph is composed and validated when it is written and by `npm run schema:check`;
    // validating it again costs every environment's start (twice per process; Apollo skips it under
    // NODE_ENV=production, which the Docker image sets) and cannot find anything new.
    validateSupergraph: false,
    buildService: ({ name }) => {
      const source = options.dataSources[name];
      if (!source) throw new Error(`No data source for subgraph "${name}"`);
      return source;
    },
  });
  const server = new ApolloServer<GatewayContext>({
    gateway,
    formatError,
    includeStacktraceInErrorResponses: false,
    introspection: options.introspection ?? true,
    validationRules: queryLimitRules(options.limits),
    csrfPrevention: true,
    // The process's main owns shutdown (servers, then environments, then the database). With Apollo's
    // own SIGINT/SIGTERM handler racing it, our `stop()` never returned: `npm start` hit its 25 s
    // shutdown timer, exited 1 and left the embedded PostgreSQL running.
    stopOnTerminationSignals: false,
  });
  await server.start();
  return server;
}
