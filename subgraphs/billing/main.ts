import '../../kit/process/heap-tuning.js';
import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { type Config, databaseWaitsOf, deploymentPublicUrl } from '../../kit/config.js';
import { signedRpcClient, signedRpcRoutes } from '../../kit/http/signed-rpc.js';
import { LEAKED_TOKEN_RPC } from '../../kit/leaked-tokens.js';
import { OWNER_MAILBOX_RPC } from '../../kit/email/owner-mailbox.js';
import { createLogger } from '../../kit/logger.js';
import { runMain } from '../../kit/process/run-service.js';
import { runSubgraph } from '../../kit/process/run-subgraph.js';
import { BILLING_QUEUE_DEPTH_SQL } from './jobs/queue-depth.queries.js';
import { WEBHOOK_INGEST_RPC } from '../webhooks/contract.js';
import { ORGANIZATION_DIRECTORY_RPC } from '../identity/contract.js';
import { mailerFromConfig } from '../../kit/email/mailer.js';
import { OutboxRelay } from './events/outbox-relay.js';
import { PROCESSOR_WEBHOOKS_RPC } from '../../kit/processor-webhooks.js';
import { startBilling } from './runtime.js';

// Customer portal links use the environment's public address, as the REST adapter process reads it;
// this process's own port is not public, so the fallback is the adapter's default port.
const publicUrl = (config: Config) => deploymentPublicUrl(config, 8000);

/**
 * The billing subgraph as its own process (distributed topology, `node dist/subgraphs/billing/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and
 * customer session look-ups (`polar_cst_` → principal) signed by the REST adapter, and relaying its
 * outbox to the webhooks process (WEBHOOKS_URL).
 * Migrates its schema at start (advisory-locked, so several replicas may start at once).
 */
runMain(() =>
  runSubgraph({
    service: 'billing',
    queueDepthSql: BILLING_QUEUE_DEPTH_SQL,
    start: async config => {
      const runtime = await startBilling({
        databaseUrl: config.DATABASE_URL,
        secret: config.SECRET,
        clock: systemClock,
        environment: config.ENVIRONMENT,
        publicUrl: publicUrl(config),
        payments: config,
        integrations: config,
        tax: config,
        databaseWaits: databaseWaitsOf(config),
        sandboxClockWaitMs: config.SANDBOX_CLOCK_WAIT_MS,
        renewalRetryMs: config.RENEWAL_INTERVAL_MS,
        logger: createLogger(config.LOG_LEVEL, { service: 'billing', environment: config.ENVIRONMENT }),
        mailer: mailerFromConfig(
          config,
          createLogger(config.LOG_LEVEL, { service: 'billing-mail', environment: config.ENVIRONMENT }),
        ),
        // Seller names in e-mails, the portal and subscription settings (grace period, proration) come
        // from identity (IDENTITY_URL); without it every plan change defaults to Polar's `prorate`.
        organizations: config.IDENTITY_URL
          ? signedRpcClient(ORGANIZATION_DIRECTORY_RPC, config.IDENTITY_URL, config.INTERNAL_KEY)
          : null,
      });
      // The outbox goes to the webhooks process (WEBHOOKS_URL) over signed JSON RPC; without it the
      // events stay in billing.events, undispatched, until a relay runs.
      if (!config.WEBHOOKS_URL) return runtime;
      const logger = createLogger(config.LOG_LEVEL, { service: 'billing-relay', environment: config.ENVIRONMENT });
      const relay = new OutboxRelay(
        runtime.orm,
        signedRpcClient(WEBHOOK_INGEST_RPC, config.WEBHOOKS_URL, config.INTERNAL_KEY),
        logger,
      );
      await relay.listen(config.DATABASE_URL);
      relay.start();
      return {
        ...runtime,
        close: async () => {
          await relay.stop();
          await runtime.close();
        },
      };
    },
    principals: runtime => runtime.principals,
    // Leaked customer session tokens reported by GitHub secret scanning (kit/leaked-tokens.ts), and the
    // owner notifications the webhooks process and the REST adapter queue (kit/email/owner-mailbox.ts).
    internalRoutes: (runtime, config, logger) => ({
      ...signedRpcRoutes(LEAKED_TOKEN_RPC, runtime.leakedTokens, config.INTERNAL_KEY, logger),
      ...signedRpcRoutes(OWNER_MAILBOX_RPC, runtime.ownerMailbox, config.INTERNAL_KEY, logger),
      // Stripe's webhooks, as the REST adapter received them (billing verifies and applies them).
      ...signedRpcRoutes(PROCESSOR_WEBHOOKS_RPC, runtime.processorWebhooks, config.INTERNAL_KEY, logger),
    }),
  }),
);
