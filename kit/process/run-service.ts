import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../config.js';
import type { Logger } from '../logger.js';
import { type MetricsListen, type MetricsServer, startMetricsServer } from '../metrics/metrics-server.js';
import { startTracing } from '../tracing/tracing.js';

/** A shutdown still running after this long exits with 1 anyway. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

export interface StartedService {
  /** Not yet listening: runService listens on host:port. */
  server: Server;
  /** Extra fields of the `listening` log line. */
  details?: Record<string, unknown>;
}

export interface ServiceOptions {
  /** The process's name: its traces' `service.name` (docs/observability.md#traces). */
  service: string;
  logger: Logger;
  host: string;
  port: number;
  /**
   * Builds the service. `onClose` registers what shutdown closes, in order, once the server has
   * stopped: register each resource as soon as it exists, so a start that fails later still closes it.
   */
  /** The metrics endpoint's METRICS_PORT and METRICS_HOST (docs/observability.md); none: no endpoint. */
  metrics?: MetricsListen;
  start: (onClose: (close: () => Promise<unknown>) => void) => Promise<StartedService>;
}

/**
 * Runs one process of the distributed topology: starts it, listens, and logs `listening` with the
 * bound port (with PORT=0 that line is how callers, test/distributed among them, learn the port).
 * SIGINT/SIGTERM stop it: no new connections, in-flight requests finish, registered resources close,
 * exit 0. A failed start logs `start failed`, closes what was registered and exits 1.
 */
export async function runService(options: ServiceOptions): Promise<void> {
  const { logger } = options;
  const closers: (() => Promise<unknown>)[] = [];
  let server: Server | undefined;
  let metrics: MetricsServer | null = null;
  let stopping = false;
  let tracingStop: (() => Promise<void>) | undefined;
  const shutdown = async (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    if (server) {
      const closed = new Promise<void>(resolve => server!.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    }
    await metrics?.close();
    for (const close of closers) await close().catch(error => logger.error({ err: error }, 'close failed'));
    await tracingStop?.().catch(error => logger.error({ err: error }, 'trace export failed'));
    clearTimeout(timer);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  let details: Record<string, unknown> | undefined;
  try {
    // Stopped last at shutdown: the spans of the requests that drained are exported before the exit.
    tracingStop = (await startTracing(options.service)) ?? undefined;
    ({ server, details } = await options.start(close => closers.push(close)));
    await listen(server, options.port, options.host);
    if (options.metrics) metrics = await startMetricsServer(options.metrics);
  } catch (error) {
    logger.fatal({ err: error }, 'start failed');
    await shutdown('start-failure', 1);
    return;
  }
  const { port } = server.address() as AddressInfo;
  logger.info({ host: options.host, port, ...(metrics ? { metricsPort: metrics.port } : {}), ...details }, 'listening');
}

/** Resolves once `server` listens, rejects when listening fails (port taken, bad host). */
function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** Runs a process's main: a ConfigError prints its message alone, anything else its stack; both exit 1. */
export function runMain(main: () => Promise<void>): void {
  main().catch(error => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error))}\n`,
    );
    process.exit(1);
  });
}
