import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { DomainError } from '../../../kit/errors.js';
import { SubgraphExecutor } from '../../../kit/graphql/subgraph-executor.js';
import type { SubgraphRuntime } from '../../../kit/graphql/subgraph-runtime.js';
import { readGraphQLRequest, sendGraphQLError } from '../../../kit/http/graphql-http.js';
import { headerOf, parseJson, readBody, sendJson } from '../../../kit/http/http-util.js';
import { GRAPHQL_INTERNAL_ERROR, router, type Routes } from '../../../kit/http/router.js';
import type { Logger } from '../../../kit/logger.js';
import { PRINCIPAL_HEADER, type PrincipalResolver, verifyPrincipal } from '../../../kit/principal.js';
import {
  INTERNAL_PRINCIPAL_PATH,
  INTERNAL_SIGNATURE_HEADER,
  INTERNAL_TIMESTAMP_HEADER,
  type PrincipalRequestBody,
  verifyInternalRequest,
  type WireDomainError,
} from './internal-auth.js';

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

  const resolvePrincipal = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const raw = await readBody(req);
    const signed = verifyInternalRequest(
      {
        method: 'POST',
        path: INTERNAL_PRINCIPAL_PATH,
        body: raw,
        timestamp: headerOf(req, INTERNAL_TIMESTAMP_HEADER),
        signature: headerOf(req, INTERNAL_SIGNATURE_HEADER),
      },
      options.internalKey,
    );
    if (!signed) {
      options.logger.warn({ requestId, remote: req.socket.remoteAddress }, 'internal request without a valid signature');
      sendJson(res, 401, { error: { code: 'UNAUTHENTICATED', message: 'Internal requests must be signed with the internal key.', status: 401 } });
      return;
    }
    const body = parseJson(raw) as PrincipalRequestBody | undefined;
    const authorization = typeof body?.authorization === 'string' ? body.authorization : undefined;
    const session = typeof body?.session === 'string' ? body.session : undefined;
    try {
      sendJson(res, 200, { principal: await options.principals.resolve(authorization, session) });
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) throw error;
      const wire: WireDomainError = { code: error.code, message: error.message, status: error.status };
      if (error.details !== undefined) wire.details = error.details;
      sendJson(res, error.status, { error: wire });
    }
  };

  const routes: Routes = {
    '/graphql': { POST: graphql },
    [INTERNAL_PRINCIPAL_PATH]: { POST: resolvePrincipal },
    '/healthz': { GET: async (_req, res) => sendJson(res, 200, { status: 'ok' }) },
    '/readyz': {
      GET: async (_req, res) => {
        const ok = await options.ready().catch(() => false);
        sendJson(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable' });
      },
    },
  };

  const server = createServer(
    router(routes, options.logger, path =>
      path === INTERNAL_PRINCIPAL_PATH ? { error: { code: 'InternalServerError', message: 'Internal server error', status: 500 } } : GRAPHQL_INTERNAL_ERROR,
    ),
  );
  // Callers pool connections (the gateway's fetcher, undici in the REST adapter): keep idle sockets
  // longer than they do, so a reused socket is never one the server is closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
