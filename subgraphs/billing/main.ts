import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { type Config, loadConfig } from '../../kit/config.js';
import { ping } from '../../kit/database/databases.js';
import { createLogger } from '../../kit/logger.js';
import { requireConfig } from '../../kit/process/require-config.js';
import { runMain, runService } from '../../kit/process/run-service.js';
import { createBillingHttpServer } from './http/server.js';
import { CustomerSessionPrincipalResolver } from './auth/customer-principal-resolver.js';
import { startBilling } from './runtime.js';

/**
 * The billing subgraph as its own process (distributed topology, `node dist/subgraphs/billing/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and
 * customer session look-ups (`polar_cst_`) signed by the REST adapter.
 * Migrates its schema at start (advisory-locked, so several replicas may start at once).
 */
/**
 * The environment's public address (customer portal links): PUBLIC_URL (SANDBOX_PUBLIC_URL first for
 * a sandbox deployment), as the REST adapter process reads it. This process's own port is not public.
 */
function publicUrl(config: Config): string {
  const configured = config.ENVIRONMENT === 'sandbox' ? (config.SANDBOX_PUBLIC_URL ?? config.PUBLIC_URL) : config.PUBLIC_URL;
  return (configured ?? `http://${config.HOST}:8000`).replace(/\/$/, '');
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { service: 'billing', environment: config.ENVIRONMENT });
  const required = requireConfig(config, ['DATABASE_URL', 'SECRET', 'INTERNAL_KEY'], 'the billing subgraph process');
  const databaseUrl = required.DATABASE_URL;

  await runService({
    logger,
    host: config.HOST,
    port: config.PORT,
    start: async onClose => {
      const runtime = await startBilling({ databaseUrl, secret: required.SECRET, clock: systemClock, publicUrl: publicUrl(config) });
      onClose(() => runtime.close());
      const server = createBillingHttpServer({
        runtime,
        principals: new CustomerSessionPrincipalResolver(runtime.orm, required.SECRET, systemClock),
        internalKey: required.INTERNAL_KEY,
        logger,
        ready: () => ping(databaseUrl),
      });
      return { server };
    },
  });
}

runMain(main);
