import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { SubgraphExecutor } from '../graphql/subgraph-executor.js';
import type { SubgraphRuntime } from '../graphql/subgraph-runtime.js';
import type { Logger } from '../logger.js';
import type { PrincipalResolver } from '../principal.js';
import { readGraphQLRequest, signedPrincipalOf } from './graphql-http.js';
import { sendJson } from './http-util.js';
import { INTERNAL_PRINCIPAL_PATH } from './internal-auth.js';
import { INTERNAL_ENDPOINT_ERROR, principalEndpoint } from './principal-endpoint.js';
import { createRouterServer, GRAPHQL_INTERNAL_ERROR, healthz, type Routes } from './router.js';

export interface SubgraphHttpOptions {
  runtime: SubgraphRuntime;
  /** What `POST /internal/principal` resolves for the REST adapter. */
  principals: PrincipalResolver;
  internalKey: string;
  logger: Logger;
  /** Database answers (GET /readyz). */
  ready: () => Promise<boolean>;
  /** Further signed internal endpoints (`/internal/...`, kit/http/signed-rpc.ts) this subgraph publishes. */
  internalRoutes?: Routes;
}

/**
 * A subgraph as its own process (distributed topology):
 * - `POST /graphql`: subgraph fetches, only with a principal signed by the gateway (x-billing-principal);
 *   `_service` and `_entities` included, so the port is useless to anyone who does not hold the key;
 * - `POST /internal/principal`: credential → principal for the REST adapter (HMAC-signed body);
 * - `POST /internal/<contract>/<method>`: the contracts the subgraph publishes to the REST adapter
 *   (`internalRoutes`, signed JSON RPC, kit/http/signed-rpc.ts);
 * - `GET /healthz` (process up), `GET /readyz` (database answers).
 */
export function createSubgraphHttpServer(options: SubgraphHttpOptions): Server {
  const executor = new SubgraphExecutor(options.runtime, options.logger);

  const signedPrincipal = signedPrincipalOf(options.internalKey, options.logger, {
    log: 'subgraph request without a valid gateway signature',
    message: 'This subgraph only answers requests signed by the gateway.',
  });
  const graphql = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const principal = signedPrincipal(req, res, requestId);
    if (!principal) return;
    const request = await readGraphQLRequest(req, res);
    if (!request) return;
    sendJson(res, 200, await executor.run(request, principal, requestId));
  };

  const routes: Routes = {
    ...options.internalRoutes,
    '/graphql': { POST: graphql },
    [INTERNAL_PRINCIPAL_PATH]: { POST: principalEndpoint(options.principals, options.internalKey, options.logger) },
    '/healthz': { GET: healthz },
    '/readyz': {
      GET: async (_req, res) => {
        const ok = await options.ready().catch(() => false);
        sendJson(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' });
      },
    },
  };

  return createRouterServer(routes, options.logger, path =>
    path.startsWith('/internal/') ? INTERNAL_ENDPOINT_ERROR : GRAPHQL_INTERNAL_ERROR,
  );
}
