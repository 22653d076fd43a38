import { describePaymentProcessor, type PaymentProcessorDescription } from '../subgraphs/billing/contract.js';
import { stripeJsFromConfig } from '../rest-adapter/web-kit/stripe-js.js';
import type { ApolloServer } from '@apollo/server';
import type { Express } from 'express';
import type { Clock } from '../kit/clock.js';
import { type Config, databaseWaitsOf, type EnvironmentName, publicUrlOf } from '../kit/config.js';
import { poolsReady } from '../kit/database/pool-readiness.js';
import type { GatewayContext, SubgraphRuntime } from '../kit/graphql/subgraph-runtime.js';
import type { Logger } from '../kit/logger.js';
import { watchPool, watchQueues } from '../kit/metrics/scrape-sources.js';
import { createGateway, readSupergraph } from '../gateway/gateway.js';
import { DirectOperations } from '../gateway/direct-operations.js';
import { CachedLocalDataSource } from '../gateway/local-data-source.js';
import { assembleRestApp } from '../rest-adapter/assemble.js';
import { InProcessGatewayClient } from '../rest-adapter/upstream/gateway-client.js';
import { OperationDocuments } from '../rest-adapter/v1/operations.js';
import { loadGitHubPublicKeys } from '../rest-adapter/inbound/secret-scanning/github-keys.js';
import { createRequestGuards } from '../rest-adapter/guards/request-guards.js';
import {
  BILLING_QUEUE_DEPTH_SQL,
  type BillingRuntime,
  OutboxRelay,
  startBilling,
} from '../subgraphs/billing/runtime.js';
import {
  deliveryPolicyOf,
  startWebhooks,
  WEBHOOKS_QUEUE_DEPTH_SQL,
  type WebhooksRuntime,
} from '../subgraphs/webhooks/runtime.js';
import { CompositePrincipalResolver } from '../kit/composite-principal-resolver.js';
import { TOKEN_PREFIXES } from '../kit/tokens.js';
import { mailerFromConfig } from '../kit/email/mailer.js';
import {
  type IdentityRuntime,
  InProcessOAuth2Provider,
  InProcessWebIdentity,
  startIdentity,
} from '../subgraphs/identity/runtime.js';

/** One complete environment (production or sandbox) inside one process: subgraphs, gateway, REST. */
export interface Environment {
  name: EnvironmentName;
  /** Which payment processor takes this environment's money (banner and /readyz). */
  payments: PaymentProcessorDescription;
  app: Express;
  identity: IdentityRuntime;
  billing: BillingRuntime;
  webhooks: WebhooksRuntime;
  /** Hands billing's outbox to webhooks (in-process). */
  relay: OutboxRelay;
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
    poolMax: options.config.DATABASE_POOL_SIZE,
    databaseWaits: databaseWaitsOf(options.config),
    logger: options.logger.child({ environment: options.name }),
  });
  const publicUrl = publicUrlOf(options.config, options.name);
  const billing = await startBilling({
    databaseUrl: options.databaseUrl,
    secret: options.secret,
    clock: options.clock,
    environment: options.name,
    publicUrl,
    payments: options.config,
    poolMax: options.config.DATABASE_POOL_SIZE,
    databaseWaits: databaseWaitsOf(options.config),
    sandboxClockWaitMs: options.config.SANDBOX_CLOCK_WAIT_MS,
    renewalRetryMs: options.config.RENEWAL_INTERVAL_MS,
    logger: options.logger.child({ environment: options.name }),
    mailer: mailerFromConfig(options.config, options.logger.child({ environment: options.name })),
    organizations: identity.organizations,
    integrations: options.config,
    tax: options.config,
  });
  // The e-mails identity owes (leaked tokens revoked) go to billing's outbox.
  identity.ownerNotices.start(billing.ownerMailbox);
  const webhooks = await startWebhooks({
    databaseUrl: options.databaseUrl,
    clock: options.clock,
    logger: options.logger,
    allowPrivateTargets: options.name === 'sandbox' || options.config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    policy: deliveryPolicyOf(options.config),
    runWorker: options.config.WEBHOOK_WORKER,
    environment: options.name,
    poolMax: options.config.DATABASE_POOL_SIZE,
    databaseWaits: databaseWaitsOf(options.config),
    ownerMailbox: billing.ownerMailbox,
  });
  const relay = new OutboxRelay(billing.orm, webhooks.ingest, options.logger);
  await relay.listen(options.databaseUrl);
  relay.start();
  const supergraphSdl = readSupergraph();
  const operations = new OperationDocuments();
  const gateway = await createGateway({
    supergraphSdl,
    dataSources: {
      [identity.name]: new CachedLocalDataSource(identity),
      [billing.name]: new CachedLocalDataSource(billing),
      [webhooks.name]: new CachedLocalDataSource(webhooks),
    },
    limits: { maxDepth: options.config.GRAPHQL_MAX_DEPTH, maxCost: options.config.GRAPHQL_MAX_COST },
  });
  const guards = await createRequestGuards({
    environment: options.name,
    config: options.config,
    logger: options.logger.child({ environment: options.name }),
    databaseUrl: options.databaseUrl,
  });
  const payments = describePaymentProcessor(options.config, options.name);
  const app = assembleRestApp({
    announcements: {
      payment_processor: {
        name: payments.processor,
        takes_real_money: payments.takesRealMoney,
        warning: payments.warning,
      },
    },
    environment: options.name,
    checkoutCardEntry: payments.processor,
    stripeJs: payments.processor === 'stripe' ? stripeJsFromConfig(options.config) : null,
    guards,
    publicUrl,
    gateway: new InProcessGatewayClient(
      gateway,
      directOperations(supergraphSdl, operations, identity, billing, webhooks),
    ),
    // Customer sessions live in billing, every other credential in identity (kit/composite-principal-resolver.ts).
    principals: new CompositePrincipalResolver(identity.principals, {
      [TOKEN_PREFIXES.customerSession]: billing.principals,
    }),
    operations,
    logger: options.logger,
    // Ready when every pool gives a connection in time and the database answers on it.
    ready: () =>
      poolsReady(
        [
          { name: 'identity', orm: identity.orm },
          { name: 'billing', orm: billing.orm },
          { name: 'webhooks', orm: webhooks.orm },
        ],
        options.logger.child({ environment: options.name }),
      ),
    web: {
      identity: new InProcessWebIdentity(identity.orm, identity.services, options.clock),
      csrfSecret: options.secret,
    },
    organizations: identity.organizations,
    oauth2: new InProcessOAuth2Provider(identity.orm, identity.services.oauth2, options.clock, options.logger),
    secretScanning: {
      keys: loadGitHubPublicKeys(options.config),
      revokers: [identity.leakedTokens, billing.leakedTokens],
    },
    processorWebhooks: billing.processorWebhooks,
  });
  // Read on each metrics scrape (docs/observability.md): the three pools, and the queues in this database.
  const unwatch = [
    watchPool(options.name, identity.name, identity.orm),
    watchPool(options.name, billing.name, billing.orm),
    watchPool(options.name, webhooks.name, webhooks.orm),
    watchQueues(options.name, billing.orm, BILLING_QUEUE_DEPTH_SQL),
    watchQueues(options.name, webhooks.orm, WEBHOOKS_QUEUE_DEPTH_SQL),
  ];
  return {
    name: options.name,
    payments,
    app,
    identity,
    billing,
    webhooks,
    relay,
    gateway,
    close: async () => {
      for (const stop of unwatch) stop();
      await guards.close();
      await gateway.stop();
      await relay.stop();
      await webhooks.close();
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
