import '../../kit/process/heap-tuning.js';
import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { databaseWaitsOf } from '../../kit/config.js';
import { OWNER_MAILBOX_RPC } from '../../kit/email/owner-mailbox.js';
import { signedRpcClient, signedRpcRoutes } from '../../kit/http/signed-rpc.js';
import { createLogger } from '../../kit/logger.js';
import { ANONYMOUS } from '../../kit/principal.js';
import { runMain } from '../../kit/process/run-service.js';
import { runSubgraph } from '../../kit/process/run-subgraph.js';
import { WEBHOOK_INGEST_RPC } from './events/webhook-ingest.contract.js';
import { startWebhooks } from './runtime.js';
import { WEBHOOKS_QUEUE_DEPTH_SQL } from './worker/queue-depth.queries.js';
import { deliveryPolicyOf } from './worker/delivery-policy.js';

/**
 * The webhooks subgraph as its own process (distributed topology, `node dist/subgraphs/webhooks/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and the
 * ingestion contract producers' relays call (`POST /internal/webhooks/ingest`, signed JSON RPC). It
 * stores no credentials, so it resolves none. Deliveries are sent by `node dist/subgraphs/webhooks/worker.js`
 * (one or more), or by this process too when WEBHOOK_WORKER is true (the default). With BILLING_URL, this
 * process e-mails the owners of disabled endpoints through billing's outbox (so may worker.js; docker-compose
 * gives it to the workers, since billing starts after this process).
 */
runMain(() =>
  runSubgraph({
    service: 'webhooks',
    queueDepthSql: WEBHOOKS_QUEUE_DEPTH_SQL,
    start: config =>
      startWebhooks({
        databaseUrl: config.DATABASE_URL,
        databaseWaits: databaseWaitsOf(config),
        clock: systemClock,
        logger: createLogger(config.LOG_LEVEL, { service: 'webhooks', environment: config.ENVIRONMENT }),
        allowPrivateTargets: config.ENVIRONMENT === 'sandbox' || config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        policy: deliveryPolicyOf(config),
        runWorker: config.WEBHOOK_WORKER,
        environment: config.ENVIRONMENT,
        // Disabled endpoints are e-mailed to their owners through billing's outbox (BILLING_URL); without
        // it the e-mails wait in webhooks.owner_notices.
        ownerMailbox: config.BILLING_URL
          ? signedRpcClient(OWNER_MAILBOX_RPC, config.BILLING_URL, config.INTERNAL_KEY)
          : null,
      }),
    principals: () => ({ resolve: async () => ANONYMOUS }),
    internalRoutes: (runtime, config, logger) =>
      signedRpcRoutes(WEBHOOK_INGEST_RPC, runtime.ingest, config.INTERNAL_KEY, logger),
  }),
);
