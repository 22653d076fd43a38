import 'reflect-metadata';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import { ping } from '../../kit/database/databases.js';
import { createLogger } from '../../kit/logger.js';
import { requireConfig } from '../../kit/process/require-config.js';
import { runMain, runService } from '../../kit/process/run-service.js';
import { createIdentityHttpServer } from './http/server.js';
import { startIdentity } from './runtime.js';

/**
 * The identity subgraph as its own process (distributed topology, `node dist/subgraphs/identity/main.js`):
 * one environment (ENVIRONMENT) on DATABASE_URL, serving subgraph fetches signed by the gateway and
 * principal look-ups signed by the REST adapter. Migrates its schema at start (advisory-locked, so
 * several replicas may start at once).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { service: 'identity', environment: config.ENVIRONMENT });
  // NOTE: no generated fallbacks here (kit/secrets.ts would invent per-process keys): every process of
  // a distributed deployment must share SECRET and INTERNAL_KEY, so they are required.
  const required = requireConfig(config, ['DATABASE_URL', 'SECRET', 'INTERNAL_KEY'], 'the identity subgraph process');
  const databaseUrl = required.DATABASE_URL;

  await runService({
    logger,
    host: config.HOST,
    port: config.PORT,
    start: async onClose => {
      const runtime = await startIdentity({ databaseUrl, secret: required.SECRET, clock: systemClock });
      onClose(() => runtime.close());
      const server = createIdentityHttpServer({
        runtime,
        principals: runtime.principals,
        internalKey: required.INTERNAL_KEY,
        logger,
        ready: () => ping(databaseUrl),
      });
      return { server };
    },
  });
}

runMain(main);
