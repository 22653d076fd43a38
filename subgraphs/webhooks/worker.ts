import '../../kit/process/heap-tuning.js';
import 'reflect-metadata';
import { databaseWaitsOf, loadConfig } from '../../kit/config.js';
import { OWNER_MAILBOX_RPC } from '../../kit/email/owner-mailbox.js';
import { signedRpcClient } from '../../kit/http/signed-rpc.js';
import { createLogger } from '../../kit/logger.js';
import { requireConfig } from '../../kit/process/require-config.js';
import { runMain } from '../../kit/process/run-service.js';
import { startMetricsServer } from '../../kit/metrics/metrics-server.js';
import { watchPool, watchQueues } from '../../kit/metrics/scrape-sources.js';
import { WEBHOOKS_QUEUE_DEPTH_SQL } from './worker/queue-depth.queries.js';
import { OwnerNoticeRelay } from '../../kit/email/owner-notices.js';
import { openWebhooksOrm } from './orm.js';
import { createDeliveryWorker } from './runtime.js';
import { deliveryPolicyOf } from './worker/delivery-policy.js';
import { declareDirectDatabase } from '../../kit/database/direct-urls.js';

/**
 * The webhook delivery worker as its own process (`node dist/subgraphs/webhooks/worker.js`): one
 * environment (ENVIRONMENT) on DATABASE_URL. Run as many as needed: they share the queue through
 * `FOR UPDATE SKIP LOCKED` claims with a lease, so a killed worker's claims are retried by another (or
 * by itself after a restart) once the lease (WEBHOOK_LEASE_MS) runs out. SIGINT/SIGTERM let the
 * current batch finish. With BILLING_URL (and INTERNAL_KEY) it also e-mails the owners of endpoints it
 * disabled, through billing's outbox (kit/email/owner-notices.ts; any number of relays may run).
 */
runMain(async () => {
  const config = loadConfig();
  declareDirectDatabase(config);
  const logger = createLogger(config.LOG_LEVEL, { service: 'webhooks-worker', environment: config.ENVIRONMENT });
  const required = requireConfig(config, ['DATABASE_URL'], 'the webhook delivery worker');
  const orm = await openWebhooksOrm(required.DATABASE_URL, 4, {
    asynchronousCommit: true,
    waits: databaseWaitsOf(config),
  });
  const mailbox = config.BILLING_URL
    ? signedRpcClient(
        OWNER_MAILBOX_RPC,
        config.BILLING_URL,
        requireConfig(config, ['INTERNAL_KEY'], 'owner e-mails (BILLING_URL)').INTERNAL_KEY,
      )
    : null;
  const notifications = mailbox ? new OwnerNoticeRelay(orm, 'webhooks', logger) : undefined;
  const worker = createDeliveryWorker(
    orm,
    {
      allowPrivateTargets: config.ENVIRONMENT === 'sandbox' || config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      policy: deliveryPolicyOf(config),
      logger,
      environment: config.ENVIRONMENT,
    },
    () => notifications?.wake(),
  );
  // Messages queued by another process (ingestion in the webhooks process, a redelivery) wake the worker
  // at commit, and notices written by any process wake the relay (triggers notify, kit/database/work-signals.ts).
  await worker.listen(required.DATABASE_URL);
  await notifications?.listen(required.DATABASE_URL);
  watchPool(config.ENVIRONMENT, 'webhooks-worker', orm);
  watchQueues(config.ENVIRONMENT, orm, WEBHOOKS_QUEUE_DEPTH_SQL);
  const metrics = await startMetricsServer(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await metrics?.close();
    await worker.stop();
    await notifications?.stop();
    await orm.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  worker.start();
  if (mailbox) notifications?.start(mailbox);
  logger.info({ pid: process.pid, ...(metrics ? { metricsPort: metrics.port } : {}) }, 'webhook worker started');
});
