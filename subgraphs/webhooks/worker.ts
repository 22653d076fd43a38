import 'reflect-metadata';
import { loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { requireConfig } from '../../kit/process/require-config.js';
import { runMain } from '../../kit/process/run-service.js';
import { openWebhooksOrm } from './orm.js';
import { createDeliveryWorker } from './runtime.js';
import { deliveryPolicyOf } from './worker/delivery-policy.js';

/**
 * The webhook delivery worker as its own process (`node dist/subgraphs/webhooks/worker.js`): one
 * environment (ENVIRONMENT) on DATABASE_URL. Run as many as needed: they share the queue through
 * `FOR UPDATE SKIP LOCKED` claims with a lease, so a killed worker's claims are retried by another (or
 * by itself after a restart) once the lease (WEBHOOK_LEASE_MS) runs out. SIGINT/SIGTERM let the
 * current batch finish.
 */
runMain(async () => {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { service: 'webhooks-worker', environment: config.ENVIRONMENT });
  const required = requireConfig(config, ['DATABASE_URL'], 'the webhook delivery worker');
  const orm = await openWebhooksOrm(required.DATABASE_URL, 4, { asynchronousCommit: true });
  const worker = createDeliveryWorker(orm, {
    allowPrivateTargets: config.ENVIRONMENT === 'sandbox' || config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    policy: deliveryPolicyOf(config),
    logger,
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await worker.stop();
    await orm.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  worker.start();
  logger.info({ pid: process.pid }, 'webhook worker started');
});
