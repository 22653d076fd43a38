import type { ApolloServer } from '@apollo/server';
import type { Express } from 'express';
import type { Clock } from '../kit/clock.js';
import { type Config, type EnvironmentName, publicUrlOf } from '../kit/config.js';
import { ping } from '../kit/database/databases.js';
import type { GatewayContext, SubgraphRuntime } from '../kit/graphql/subgraph-runtime.js';
import type { Logger } from '../kit/logger.js';
import { createGateway, readSupergraph } from '../gateway/gateway.js';
import { DirectOperations } from '../gateway/direct-operations.js';
import { CachedLocalDataSource } from '../gateway/local-data-source.js';
import { assembleRestApp } from '../rest-adapter/assemble.js';
import { InProcessGatewayClient } from '../rest-adapter/gateway-client.js';
import { OperationDocuments } from '../rest-adapter/operations.js';
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
  const supergraphSdl = readSupergraph();
  const gateway = await createGateway({
    supergraphSdl,
    dataSources: { [identity.name]: new CachedLocalDataSource(identity) },
    limits: { maxDepth: options.config.GRAPHQL_MAX_DEPTH, maxCost: options.config.GRAPHQL_MAX_COST },
  });
  const app = assembleRestApp({
    environment: options.name,
    publicUrl: publicUrlOf(options.config, options.name),
    gateway: new InProcessGatewayClient(gateway, directOperations(supergraphSdl, identity)),
    principals: identity.principals,
    logger: options.logger,
    ready: () => ping(options.databaseUrl),
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

/** The REST operations the gateway would answer from one in-process subgraph run on it directly. */
function directOperations(supergraphSdl: string, ...runtimes: SubgraphRuntime[]): DirectOperations {
  const documents = new OperationDocuments();
  return new DirectOperations(supergraphSdl, runtimes, documents.names().map(name => ({ source: documents.source(name), operationName: name })));
}
