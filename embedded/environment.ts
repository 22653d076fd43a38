import type { ApolloServer } from '@apollo/server';
import type { Express } from 'express';
import type { Clock } from '../kit/clock.js';
import { type Config, type EnvironmentName, publicUrlOf } from '../kit/config.js';
import { ping } from '../kit/database/databases.js';
import type { GatewayContext } from '../kit/graphql/subgraph-runtime.js';
import type { Logger } from '../kit/logger.js';
import { createGateway, readSupergraph } from '../gateway/gateway.js';
import { CachedLocalDataSource } from '../gateway/local-data-source.js';
import { createApp } from '../rest-adapter/app.js';
import { InProcessGatewayClient } from '../rest-adapter/gateway-client.js';
import { buildOpenApi, renderDocsPage } from '../rest-adapter/openapi.js';
import { OperationDocuments } from '../rest-adapter/operations.js';
import { routes } from '../rest-adapter/routes/index.js';
import { type IdentityRuntime, startIdentity } from '../subgraphs/identity/runtime.js';

/** One complete environment (production or sandbox) inside one process: subgraphs, gateway, REST. */
export interface Environment {
  name: EnvironmentName;
  app: Express;
  identity: IdentityRuntime;
  gateway: ApolloServer<GatewayContext>;
  close(): Promise<void>;
}

export interface EnvironmentOptions {
  name: EnvironmentName;
  config: Config;
  databaseUrl: string;
  secret: string;
  clock: Clock;
  logger: Logger;
}

export async function startEnvironment(options: EnvironmentOptions): Promise<Environment> {
  const identity = await startIdentity({ databaseUrl: options.databaseUrl, secret: options.secret, clock: options.clock });
  const gateway = await createGateway({
    supergraphSdl: readSupergraph(),
    dataSources: { [identity.name]: new CachedLocalDataSource(identity) },
    limits: { maxDepth: options.config.GRAPHQL_MAX_DEPTH, maxCost: options.config.GRAPHQL_MAX_COST },
  });
  const publicUrl = publicUrlOf(options.config, options.name);
  const openapi = buildOpenApi(routes, publicUrl);
  const docs = renderDocsPage(openapi);
  const app = createApp({
    environment: options.name,
    gateway: new InProcessGatewayClient(gateway),
    principals: identity.principals,
    routes,
    operations: new OperationDocuments(),
    logger: options.logger.child({ environment: options.name }),
    ready: () => ping(options.databaseUrl),
    openapi: () => openapi,
    docsPage: () => docs,
  });
  return {
    name: options.name,
    app,
    identity,
    gateway,
    close: async () => {
      await gateway.stop();
      await identity.close();
    },
  };
}
