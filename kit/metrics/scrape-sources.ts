import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { poolConnections, poolWaiting, queueOldestAge, queueSize } from './metrics.js';

/** What is read when Prometheus scrapes, not kept up to date in between (pools, queue depths). */
type ScrapeSource = () => Promise<void>;
const sources = new Set<ScrapeSource>();

/** Runs every source; one that fails leaves its gauges as they were (the scrape still answers). */
export async function readScrapeSources(): Promise<void> {
  await Promise.all([...sources].map(source => source().catch(() => undefined)));
}

function addSource(source: ScrapeSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

function poolOf(orm: MikroORM): Promise<pg.Pool> {
  return orm.driver.getConnection().getNativeClient() as Promise<pg.Pool>;
}

/** The pool's open, idle and configured connections and its waiting requests, on each scrape. */
export function watchPool(environment: string, pool: string, orm: MikroORM): () => void {
  return addSource(async () => {
    const native = await poolOf(orm);
    poolConnections.set({ environment, pool, state: 'open' }, native.totalCount);
    poolConnections.set({ environment, pool, state: 'idle' }, native.idleCount);
    poolConnections.set({ environment, pool, state: 'max' }, native.options.max ?? 0);
    poolWaiting.set({ environment, pool }, native.waitingCount);
  });
}

/** A scrape may not hold a connection longer than this (the statement is cancelled, the gauges kept). */
const QUEUE_STATEMENT_TIMEOUT = '1s';

/**
 * Queue depth and oldest due age on each scrape, by one statement of the subgraph (`sql` answers rows
 * of `queue`, `size`, `oldest_age_seconds`), bounded by a statement timeout in its own transaction.
 */
export function watchQueues(environment: string, orm: MikroORM, sql: string): () => void {
  return addSource(async () => {
    const client = await (await poolOf(orm)).connect();
    let broken: Error | undefined;
    try {
      const results = (await client.query(
        `begin; set local statement_timeout = '${QUEUE_STATEMENT_TIMEOUT}'; ${sql}; commit`,
      )) as unknown as pg.QueryResult[];
      const rows = results[2].rows as { queue: string; size: string; oldest_age_seconds: string | null }[];
      for (const row of rows) {
        queueSize.set({ environment, queue: row.queue }, Number(row.size));
        queueOldestAge.set({ environment, queue: row.queue }, Number(row.oldest_age_seconds ?? 0));
      }
    } catch (error) {
      // The multi-statement string stopped inside its transaction: that connection is not reused.
      broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  });
}
