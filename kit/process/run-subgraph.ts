import { databaseWaitsOf, loadConfig } from '../config.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import { poolsReady } from '../database/pool-readiness.js';
import type { SubgraphRuntime } from '../graphql/subgraph-runtime.js';
import { createSubgraphHttpServer } from '../http/subgraph-server.js';
import type { Routes } from '../http/router.js';
import { createLogger, type Logger } from '../logger.js';
import { watchPool, watchQueues } from '../metrics/scrape-sources.js';
import type { PrincipalResolver } from '../principal.js';
import { type ConfigWith, requireConfig } from './require-config.js';
import { runService } from './run-service.js';
import { declareDirectDatabase } from '../database/direct-urls.js';
import { declareReadDatabase } from '../database/read-replicas.js';
import { unboundedWaitsBehindPooler } from '../database/pooled-waits.js';

type SubgraphConfig = ConfigWith<'DATABASE_URL' | 'SECRET' | 'INTERNAL_KEY'>;

export interface SubgraphProcessOptions<R extends SubgraphRuntime & { close(): Promise<unknown>; orm: MikroORM }> {
  /** The `service` field of every log line, and the name in configuration errors. */
  service: string;
  /** Starts the subgraph (migrating its schema) on the configured DATABASE_URL. */
  start: (config: SubgraphConfig) => Promise<R>;
  /** What `POST /internal/principal` resolves for the REST adapter. */
  principals: (runtime: R, config: SubgraphConfig) => PrincipalResolver;
  /** The contracts the subgraph publishes to the REST adapter (signed JSON RPC, kit/http/signed-rpc.ts). */
  internalRoutes?: (runtime: R, config: SubgraphConfig, logger: Logger) => Routes;
  /** The subgraph's queue-depth statement, read on each metrics scrape (kit/metrics/scrape-sources.ts). */
  queueDepthSql?: string;
}

/**
 * Runs a subgraph as its own process (distributed topology): one environment (ENVIRONMENT) on
 * DATABASE_URL, behind kit/http/subgraph-server.ts on HOST:PORT.
 */
export async function runSubgraph<R extends SubgraphRuntime & { close(): Promise<unknown>; orm: MikroORM }>(
  options: SubgraphProcessOptions<R>,
): Promise<void> {
  const config = loadConfig();
  declareDirectDatabase(config);
  declareReadDatabase(config);
  const logger = createLogger(config.LOG_LEVEL, { service: options.service, environment: config.ENVIRONMENT });
  // NOTE: no generated fallbacks here (kit/secrets.ts would invent per-process keys): every process of
  // a distributed deployment must share SECRET and INTERNAL_KEY, so they are required.
  const required = requireConfig(
    config,
    ['DATABASE_URL', 'SECRET', 'INTERNAL_KEY'],
    `the ${options.service} subgraph process`,
  );

  await runService({
    service: options.service,
    logger,
    host: config.HOST,
    port: config.PORT,
    metrics: config,
    start: async onClose => {
      const runtime = await options.start(required);
      onClose(() => runtime.close());
      watchPool(config.ENVIRONMENT, options.service, runtime.orm);
      const unbounded = await unboundedWaitsBehindPooler(required.DATABASE_URL, databaseWaitsOf(config));
      if (unbounded) logger.warn(unbounded);
      if (options.queueDepthSql) watchQueues(config.ENVIRONMENT, runtime.orm, options.queueDepthSql);
      const server = createSubgraphHttpServer({
        runtime,
        principals: options.principals(runtime, required),
        internalRoutes: options.internalRoutes?.(runtime, required, logger),
        internalKey: required.INTERNAL_KEY,
        logger,
        // Ready when the subgraph's pool gives a connection in time and the database answers on it.
        ready: () => poolsReady([{ name: options.service, orm: runtime.orm }], logger),
      });
      return { server };
    },
  });
}
