import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { SubgraphExecutor } from '../../../kit/graphql/subgraph-executor.js';
import type { SubgraphRuntime } from '../../../kit/graphql/subgraph-runtime.js';
import { readGraphQLRequest, sendGraphQLError } from '../../../kit/http/graphql-http.js';
import { headerOf, sendJson } from '../../../kit/http/http-util.js';
import { GRAPHQL_INTERNAL_ERROR, router, type Routes } from '../../../kit/http/router.js';
import type { Logger } from '../../../kit/logger.js';
import { PRINCIPAL_HEADER, type PrincipalResolver, verifyPrincipal } from '../../../kit/principal.js';
import { INTERNAL_PRINCIPAL_PATH } from '../../../kit/http/internal-auth.js';
import { PRINCIPAL_ENDPOINT_INTERNAL_ERROR, principalEndpoint } from '../../../kit/http/principal-endpoint.js';

export interface IdentityHttpOptions {
  runtime: SubgraphRuntime;
  principals: PrincipalResolver;
  internalKey: string;
  logger: Logger;
  /** Database answers (GET /readyz). */
  ready: () => Promise<boolean>;
}

/**
 * The identity subgraph as its own process (distributed topology):
 * - `POST /graphql`: subgraph fetches, only with a principal signed by the gateway (x-billing-principal);
 *   `_service` and `_entities` included, so the port is useless to anyone who does not hold the key;
 * - `POST /internal/principal`: bearer / session → principal for the REST adapter (HMAC-signed body);
 * - `GET /healthz` (process up), `GET /readyz` (database answers).
 */
export function createIdentityHttpServer(options: IdentityHttpOptions): Server {
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
