import '../kit/process/heap-tuning.js';
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { systemClock } from '../kit/clock.js';
import { keepIdleSocketsLonger } from '../kit/http/idle-sockets.js';
import { ConfigError, databaseWaitsOf, type EnvironmentName, loadConfig, publicUrlOf } from '../kit/config.js';
import { openEnvironmentDatabases } from '../kit/database/environment-databases.js';
import { unboundedWaitsBehindPooler } from '../kit/database/pooled-waits.js';
import { createLogger } from '../kit/logger.js';
import { type MetricsServer, startMetricsServer } from '../kit/metrics/metrics-server.js';
import { portInUseMessage } from '../kit/process/port-in-use.js';
import { loadSecrets } from '../kit/secrets.js';
import { startTracing } from '../kit/tracing/tracing.js';
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
  // With an OTLP endpoint configured, every request is one trace (docs/observability.md#traces); unset,
  // the SDK is never loaded. Flushed last at shutdown, after the requests that drained.
  const stopTracing = await startTracing('billing');
  if (!config.DATABASE_URL) logger.info({ dataDir: config.DATA_DIR }, 'starting embedded PostgreSQL');
  const databases = await openEnvironmentDatabases(config, secrets, 'server', line => logger.debug({ postgres: line }));

  const environments: Environment[] = [];
  const servers: Server[] = [];
  let metrics: MetricsServer | null = null;
  let stopping = false;
  const shutdown = async (signal: string, exitCode = 0) => {
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
    await metrics?.close();
    await Promise.all(environments.map(e => e.close().catch(error => logger.error({ err: error }, 'close failed'))));
    await databases.close();
    await stopTracing?.().catch(error => logger.error({ err: error }, 'trace export failed'));
    clearTimeout(timer);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    // Both environments' metrics on one endpoint, labelled `environment` (docs/observability.md).
    metrics = await startMetricsServer(config);
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
          // Our own server, not `app.listen`: Express 5 hands a listen error to the callback, and
          // a start that took it for success went on serving with one port never bound.
          const server = keepIdleSocketsLonger(createServer(environment.app));
          server.once('error', error =>
            reject(
              (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
                ? new ConfigError(portInUseMessage(port, name, name === 'production' ? 'PORT' : 'SANDBOX_PORT'))
                : error,
            ),
          );
          server.listen(port, config.HOST, () => resolve(server));
        }),
      );
    }
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else logger.fatal({ err: error }, 'start failed');
    await shutdown('start-failure', 1);
    return;
  }
  const production = publicUrlOf(config, 'production');
  const sandbox = publicUrlOf(config, 'sandbox');
  logger.info(
    { production, sandbox, ...(metrics ? { metricsPort: metrics.port } : {}), tracing: stopTracing !== null },
    'serving',
  );
  // Which processor takes the money is part of the banner, so nobody takes simulated payments unaware.
  const payments = environments.map(
    e => `${e.name === 'production' ? 'Production' : 'Sandbox   '} ${e.payments.summary}`,
  );
  const waitsUnbounded = await Promise.all(
    environments.map(e => unboundedWaitsBehindPooler(databases.urls[e.name], databaseWaitsOf(config))),
  );
  const warnings = environments.flatMap((e, i) =>
    [e.payments.warning, waitsUnbounded[i]].flatMap(warning => (warning ? [`WARNING (${e.name}): ${warning}`] : [])),
  );
  for (const warning of warnings) logger.warn(warning);
  process.stdout.write(
    `\nProduction API: ${production}\nSandbox API:    ${sandbox}\nDocs:           ${production}/docs\n${payments.join('\n')}\n${warnings.map(w => `${w}\n`).join('')}\n`,
  );
}

main().catch(error => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
