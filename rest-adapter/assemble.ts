import type { Express } from 'express';
import type { EnvironmentName } from '../kit/config.js';
import type { Logger } from '../kit/logger.js';
import type { PrincipalResolver } from '../kit/principal.js';
import { createApp } from './app.js';
import type { GatewayClient } from './gateway-client.js';
import { buildOpenApi, renderDocsPage } from './openapi.js';
import { OperationDocuments } from './operations.js';
import { routes } from './routes/index.js';

export interface RestAppOptions {
  environment: EnvironmentName;
  /** Public base URL of this environment (servers in the OpenAPI document, OIDC issuer, links). */
  publicUrl: string;
  /** In-process gateway (embedded) or HTTP with a signed principal (distributed). */
  gateway: GatewayClient;
  /** Bearer → principal: identity in-process (embedded) or its /internal/principal endpoint (distributed). */
  principals: PrincipalResolver;
  logger: Logger;
  ready: () => Promise<boolean>;
}

/**
 * The REST adapter's app for one environment, assembled the same way in both topologies; only the
 * gateway client, the principal resolver and the readiness check differ (embedded/environment.ts,
 * rest-adapter/main.ts).
 */
export function assembleRestApp(options: RestAppOptions): Express {
  const openapi = buildOpenApi(routes, options.publicUrl);
  const docs = renderDocsPage(openapi);
  return createApp({
    environment: options.environment,
    gateway: options.gateway,
    principals: options.principals,
    routes,
    operations: new OperationDocuments(),
    logger: options.logger.child({ environment: options.environment }),
    ready: options.ready,
    openapi: () => openapi,
    docsPage: () => docs,
  });
}
