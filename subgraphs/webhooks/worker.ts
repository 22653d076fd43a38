import 'reflect-metadata';
import { databaseWaitsOf, loadConfig } from '../../kit/config.js';
import { OWNER_MAILBOX_RPC } from '../../kit/email/owner-mailbox.js';
import { signedRpcClient } from '../../kit/http/signed-rpc.js';
import { createLogger } from '../../kit/logger.js';
import { requireConfig } from '../../kit/process/require-config.js';
import { runMain } from '../../kit/process/run-service.js';
import { ChannelListener } from '../../kit/database/channel-listener.js';
import { WEBHOOKS_QUEUED_CHANNEL } from './events/event-ingest.js';
import { OwnerNoticeRelay } from '../../kit/email/owner-notices.js';
import { openWebhooksOrm } from './orm.js';
import { createDeliveryWorker } from './runtime.js';
import { deliveryPolicyOf } from './worker/delivery-policy.js';

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
    },
    () => notifications?.wake(),
  );
  // Events queued by another process (billing's outbox relay) wake the worker at commit instead of
  // after its next poll (up to 250 ms later).
  const queued = new ChannelListener(
    required.DATABASE_URL,
    WEBHOOKS_QUEUED_CHANNEL,
    // Connected (again): look once for what was queued while nobody listened.
    { notified: () => worker.wake(), listening: () => worker.wake() },
    'billing-webhooks-worker-listen',
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await queued.close();
    await worker.stop();
    await notifications?.stop();
    await orm.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  worker.start();
  await queued.start();
  if (mailbox) notifications?.start(mailbox);
  logger.info({ pid: process.pid }, 'webhook worker started');
});
