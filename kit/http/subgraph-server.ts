import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SubgraphExecutor } from '../graphql/subgraph-executor.js';
import type { SubgraphRuntime } from '../graphql/subgraph-runtime.js';
import type { Logger } from '../logger.js';
import { PRINCIPAL_HEADER, type PrincipalResolver, verifyPrincipal } from '../principal.js';
import { readGraphQLRequest, sendGraphQLError } from './graphql-http.js';
import { headerOf, sendJson } from './http-util.js';
import { INTERNAL_PRINCIPAL_PATH } from './internal-auth.js';
import { PRINCIPAL_ENDPOINT_INTERNAL_ERROR, principalEndpoint } from './principal-endpoint.js';
import { GRAPHQL_INTERNAL_ERROR, router, type Routes } from './router.js';

export interface SubgraphHttpOptions {
  runtime: SubgraphRuntime;
  /** What `POST /internal/principal` resolves for the REST adapter. */
  principals: PrincipalResolver;
  internalKey: string;
  logger: Logger;
  /** Database answers (GET /readyz). */
  ready: () => Promise<boolean>;
}

/**
 * A subgraph as its own process (distributed topology):
 * - `POST /graphql`: subgraph fetches, only with a principal signed by the gateway (x-billing-principal);
 *   `_service` and `_entities` included, so the port is useless to anyone who does not hold the key;
 * - `POST /internal/principal`: credential → principal for the REST adapter (HMAC-signed body);
 * - `GET /healthz` (process up), `GET /readyz` (database answers).
 */
export function createSubgraphHttpServer(options: SubgraphHttpOptions): Server {
  const executor = new SubgraphExecutor(options.runtime, options.logger);

  const graphql = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const principal = verifyPrincipal(headerOf(req, PRINCIPAL_HEADER), options.internalKey);
    if (!principal) {
      req.resume();
      options.logger.warn({ requestId, remote: req.socket.remoteAddress }, 'subgraph request without a valid gateway signature');
      sendGraphQLError(res, 401, 'This subgraph only answers requests signed by the gateway.', 'UNAUTHENTICATED');
      return;
    }
    const request = await readGraphQLRequest(req, res);
    if (!request) return;
    sendJson(res, 200, await executor.run(request, principal, requestId));
  };

  const routes: Routes = {
    '/graphql': { POST: graphql },
    [INTERNAL_PRINCIPAL_PATH]: { POST: principalEndpoint(options.principals, options.internalKey, options.logger) },
    '/healthz': { GET: async (_req, res) => sendJson(res, 200, { status: 'ok' }) },
    '/readyz': {
      GET: async (_req, res) => {
        const ok = await options.ready().catch(() => false);
        sendJson(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' });
      },
    },
  };

  const server = createServer(
    router(routes, options.logger, path => (path === INTERNAL_PRINCIPAL_PATH ? PRINCIPAL_ENDPOINT_INTERNAL_ERROR : GRAPHQL_INTERNAL_ERROR)),
  );
  // Callers pool connections (the gateway's fetcher, undici in the REST adapter): keep idle sockets
  // longer than they do, so a reused socket is never one the server is closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
