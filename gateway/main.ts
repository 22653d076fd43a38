import '../kit/process/heap-tuning.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import { loadConfig } from '../kit/config.js';
import type { GatewayContext } from '../kit/graphql/subgraph-runtime.js';
import { readGraphQLRequest, sendGraphQLError, signedPrincipalOf } from '../kit/http/graphql-http.js';
import { BodyTooLarge, sendJson } from '../kit/http/http-util.js';
import { joinUrl, reachable } from '../kit/http/peers.js';
import { createRouterServer, healthz, type Routes } from '../kit/http/router.js';
import { createLogger, type Logger } from '../kit/logger.js';
import { type ConfigWith, requireConfig } from '../kit/process/require-config.js';
import { runMain, runService } from '../kit/process/run-service.js';
import { createGateway, readSupergraph } from './gateway.js';
import { SigningDataSource } from './signing-data-source.js';

/**
 * The gateway as its own process (distributed topology, `node dist/gateway/main.js`). It serves one
 * endpoint, `POST /graphql`, to the REST adapter only: the caller's principal arrives signed with the
 * internal key (x-billing-principal) and is re-signed for every subgraph fetch. A request without a
 * valid signature is refused before any planning, so the public never reaches the graph except
 * through the adapter (which resolves bearer tokens and applies rate limits).
 */

/** Subgraph name → base URL of its process. The name is the one in schema/supergraph.graphql. */
function subgraphUrls(config: ConfigWith<'IDENTITY_URL' | 'BILLING_URL' | 'WEBHOOKS_URL'>): Record<string, string> {
  return { identity: config.IDENTITY_URL, billing: config.BILLING_URL, webhooks: config.WEBHOOKS_URL };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { service: 'gateway', environment: config.ENVIRONMENT });
  const required = requireConfig(
    config,
    ['INTERNAL_KEY', 'IDENTITY_URL', 'BILLING_URL', 'WEBHOOKS_URL'],
    'the gateway process',
  );
  const internalKey = required.INTERNAL_KEY;
  const subgraphs = subgraphUrls(required);

  await runService({
    service: 'gateway',
    logger,
    host: config.HOST,
    port: config.PORT,
    metrics: config,
    start: async onClose => {
      const gateway = await createGateway({
        supergraphSdl: readSupergraph(),
        dataSources: Object.fromEntries(
          Object.entries(subgraphs).map(([name, url]) => [
            name,
            new SigningDataSource(joinUrl(url, 'graphql'), internalKey),
          ]),
        ),
        limits: { maxDepth: config.GRAPHQL_MAX_DEPTH, maxCost: config.GRAPHQL_MAX_COST },
      });
      onClose(() => gateway.stop());
      return {
        server: createRouterServer(routes(gateway, subgraphs, internalKey, logger), logger),
        details: { subgraphs },
      };
    },
  });
}

function routes(
  gateway: ApolloServer<GatewayContext>,
  subgraphs: Record<string, string>,
  internalKey: string,
  logger: Logger,
): Routes {
  const signedPrincipal = signedPrincipalOf(internalKey, logger, {
    log: 'gateway request without a valid principal signature',
    message: 'The gateway only answers requests signed by the REST adapter.',
  });
  const graphql = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
    const principal = signedPrincipal(req, res, requestId);
    if (!principal) return;
    let request: Awaited<ReturnType<typeof readGraphQLRequest>>;
    try {
      request = await readGraphQLRequest(req, res);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      sendGraphQLError(res, 413, 'Request entity too large', 'BAD_REQUEST', { connection: 'close' });
      return;
    }
    if (!request) return;
    const response = await gateway.executeOperation(request, { contextValue: { principal, requestId } });
    if (response.body.kind !== 'single') {
      sendGraphQLError(res, 400, 'Incremental delivery is not supported', 'BAD_REQUEST');
      return;
    }
    sendJson(res, response.http.status ?? 200, response.body.singleResult);
  };

  const readyz = async (_req: IncomingMessage, res: ServerResponse) => {
    const checks = await Promise.all(
      Object.entries(subgraphs).map(async ([name, url]) => [name, await reachable(joinUrl(url, 'healthz'))] as const),
    );
    const ok = checks.every(([, up]) => up);
    sendJson(res, ok ? 200 : 503, { status: ok ? 'ok' : 'unavailable', subgraphs: Object.fromEntries(checks) });
  };

  return {
    '/graphql': { POST: graphql },
    '/healthz': { GET: healthz },
    '/readyz': { GET: readyz },
  };
}

runMain(main);
