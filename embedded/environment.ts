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
import { type BillingRuntime, describePaymentProcessor, startBilling } from '../subgraphs/billing/runtime.js';
import { CompositePrincipalResolver } from '../kit/composite-principal-resolver.js';
import { TOKEN_PREFIXES } from '../kit/tokens.js';
import {
  type IdentityRuntime,
  InProcessOAuth2Provider,
  InProcessWebIdentity,
  startIdentity,
} from '../subgraphs/identity/runtime.js';

/** One complete environment (production or sandbox) inside one process: subgraphs, gateway, REST. */
export interface Environment {
  name: EnvironmentName;
  app: Express;
  identity: IdentityRuntime;
  billing: BillingRuntime;
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
  const identity = await startIdentity({
    databaseUrl: options.databaseUrl,
    secret: options.secret,
    clock: options.clock,
  });
  const publicUrl = publicUrlOf(options.config, options.name);
  const billing = await startBilling({
    databaseUrl: options.databaseUrl,
    secret: options.secret,
    clock: options.clock,
    publicUrl,
    environment: options.name,
    payments: options.config,
  });
  const supergraphSdl = readSupergraph();
  const operations = new OperationDocuments();
  const gateway = await createGateway({
    supergraphSdl,
    dataSources: {
      [identity.name]: new CachedLocalDataSource(identity),
      [billing.name]: new CachedLocalDataSource(billing),
    },
    limits: { maxDepth: options.config.GRAPHQL_MAX_DEPTH, maxCost: options.config.GRAPHQL_MAX_COST },
  });
  const app = assembleRestApp({
    environment: options.name,
    publicUrl,
    gateway: new InProcessGatewayClient(gateway, directOperations(supergraphSdl, operations, identity, billing)),
    // Customer sessions live in billing, every other credential in identity (kit/composite-principal-resolver.ts).
    principals: new CompositePrincipalResolver(identity.principals, {
      [TOKEN_PREFIXES.customerSession]: billing.principals,
    }),
    operations,
    logger: options.logger,
    ready: () => ping(options.databaseUrl),
    // Who takes the payments, and the warning an operator must see (simulated payments in production).
    readiness: () => ({ payments: describePaymentProcessor(options.config, options.name) }),
    web: {
      identity: new InProcessWebIdentity(identity.orm, identity.services, options.clock),
      csrfSecret: options.secret,
    },
    oauth2: new InProcessOAuth2Provider(identity.orm, identity.services.oauth2, options.clock, options.logger),
  });
  return {
    name: options.name,
    app,
    identity,
    billing,
    gateway,
    close: async () => {
      await gateway.stop();
      await billing.close();
      await identity.close();
    },
  };
}

/** The REST operations the gateway would answer from one in-process subgraph run on it directly. */
function directOperations(
  supergraphSdl: string,
  documents: OperationDocuments,
  ...runtimes: SubgraphRuntime[]
): DirectOperations {
  return new DirectOperations(
    supergraphSdl,
    runtimes,
    documents.names().map(name => ({ source: documents.source(name), operationName: name })),
  );
}
