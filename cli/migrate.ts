import 'reflect-metadata';
import { type DatabaseWaits, databaseWaitsOf, loadConfig } from '../kit/config.js';
import { createLogger } from '../kit/logger.js';
import { requireConfig } from '../kit/process/require-config.js';
import { runMain } from '../kit/process/run-service.js';
import { openBillingOrm } from '../subgraphs/billing/runtime.js';
import { openIdentityOrm } from '../subgraphs/identity/runtime.js';
import { openWebhooksOrm } from '../subgraphs/webhooks/runtime.js';
import { declareDirectDatabase } from '../kit/database/direct-urls.js';

/**
 * The schema migrations of every subgraph on DATABASE_URL, then exit (`node dist/cli/migrate.js`): the
 * migration step of a deployment that runs it before its new pods serve (docs/kubernetes.md). Each
 * subgraph migrates under its own advisory lock, as its process does at start, so this may run while
 * replicas start: they wait for the lock and then find nothing pending. Exit 0 when every schema is up
 * to date, 1 (with the error) otherwise.
 */
const OPENERS: Record<string, (url: string, waits: DatabaseWaits) => Promise<{ close(): Promise<void> }>> = {
  identity: (url, waits) => openIdentityOrm(url, 2, waits),
  billing: (url, waits) => openBillingOrm(url, 2, waits),
  webhooks: (url, waits) => openWebhooksOrm(url, 2, { waits }),
};

runMain(async () => {
  const config = loadConfig();
  declareDirectDatabase(config);
  const logger = createLogger(config.LOG_LEVEL, { service: 'migrate', environment: config.ENVIRONMENT });
  const { DATABASE_URL } = requireConfig(config, ['DATABASE_URL'], 'the migrations');
  for (const [schema, open] of Object.entries(OPENERS)) {
    const started = Date.now();
    const orm = await open(DATABASE_URL, databaseWaitsOf(config));
    await orm.close();
    logger.info({ schema, ms: Date.now() - started }, 'schema up to date');
  }
  process.exit(0);
});
