import 'reflect-metadata';
import type { Server } from 'node:http';
import { systemClock } from '../kit/clock.js';
import { ConfigError, type EnvironmentName, loadConfig, publicUrlOf } from '../kit/config.js';
import { openEnvironmentDatabases } from '../kit/database/environment-databases.js';
import { createLogger } from '../kit/logger.js';
import { loadSecrets } from '../kit/secrets.js';
import { describePaymentProcessor } from '../subgraphs/billing/runtime.js';
import { type Environment, startEnvironment } from './environment.js';

/**
 * The embedded topology (`npm start`): one process serving production on PORT and the sandbox on
 * SANDBOX_PORT, every subgraph and the gateway in-process, on the embedded PostgreSQL unless
 * DATABASE_URL is set.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, { service: 'billing' });
  const secrets = await loadSecrets(config);
  if (!config.DATABASE_URL) logger.info({ dataDir: config.DATA_DIR }, 'starting embedded PostgreSQL');
  const databases = await openEnvironmentDatabases(config, secrets, 'server', line => logger.debug({ postgres: line }));

  const environments: Environment[] = [];
  const servers: Server[] = [];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 25_000).unref();
    await Promise.all(
      servers.map(
        s =>
          new Promise<void>(resolve => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
    await Promise.all(environments.map(e => e.close().catch(error => logger.error({ err: error }, 'close failed'))));
    await databases.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    for (const name of ['production', 'sandbox'] as EnvironmentName[]) {
      const environment = await startEnvironment({
        name,
        config,
        databaseUrl: databases.urls[name],
        secret: secrets.secret,
        clock: systemClock,
        logger,
      });
      environments.push(environment);
      const port = name === 'production' ? config.PORT : config.SANDBOX_PORT;
      servers.push(
        await new Promise<Server>((resolve, reject) => {
          const server = environment.app.listen(port, config.HOST, () => resolve(server));
          server.once('error', reject);
        }),
      );
    }
  } catch (error) {
    logger.fatal({ err: error }, 'start failed');
    await shutdown('start-failure');
    return;
  }
  const production = publicUrlOf(config, 'production');
  const sandbox = publicUrlOf(config, 'sandbox');
  logger.info({ production, sandbox }, 'serving');
  process.stdout.write(
    `\nProduction API: ${production}\nSandbox API:    ${sandbox}\nDocs:           ${production}/docs\n\n`,
  );
  // Payments, so nobody takes simulated payments in production by mistake (payment-processor.selection.ts).
  for (const name of ['production', 'sandbox'] as const) {
    const payments = describePaymentProcessor(config, name);
    process.stdout.write(`${name === 'production' ? 'Production' : 'Sandbox'} ${payments.summary}\n`);
    if (payments.warning) process.stdout.write(`  WARNING: ${payments.warning}\n`);
  }
  process.stdout.write('\n');
}

main().catch(error => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
