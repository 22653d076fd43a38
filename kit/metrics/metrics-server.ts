import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics } from 'prom-client';
import { ConfigError } from '../config.js';
import { portInUseMessage } from '../process/port-in-use.js';
import { metricsRegistry, turnMetricsOff, turnMetricsOn } from './metrics.js';
import { readScrapeSources } from './scrape-sources.js';

/** Where the metrics endpoint listens: METRICS_PORT (unset: no endpoint at all) on METRICS_HOST. */
export interface MetricsListen {
  METRICS_PORT?: number;
  METRICS_HOST: string;
}

export interface MetricsServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

let runtimeMetrics = false;

/**
 * `GET /metrics` in Prometheus' text format on its own port, never the public one (docs/observability.md).
 * Null when METRICS_PORT is unset: no listener, and nothing is recorded.
 */
export async function startMetricsServer(listen: MetricsListen): Promise<MetricsServer | null> {
  if (listen.METRICS_PORT === undefined) return null;
  turnMetricsOn();
  if (!runtimeMetrics) {
    runtimeMetrics = true;
    collectDefaultMetrics({ register: metricsRegistry });
  }
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    void readScrapeSources()
      .then(() => metricsRegistry.metrics())
      .then(
        text => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
        (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', error =>
      reject(
        (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? new ConfigError(portInUseMessage(listen.METRICS_PORT!, 'metrics', 'METRICS_PORT'))
          : error,
      ),
    );
    server.listen(listen.METRICS_PORT, listen.METRICS_HOST, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>(resolve => {
        turnMetricsOff();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
