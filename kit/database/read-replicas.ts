import type { EntityManager, Options } from '@mikro-orm/postgresql';
import type { DatabaseWaits } from '../config.js';
import { ServiceUnavailable } from '../errors.js';
import { forgetEndedSessions } from './ended-sessions.js';
import { pooledConnectionSettings } from './waits.js';

/**
 * Read replicas (docs/read-replicas.md): with DATABASE_READ_URL, the heavy reads that tolerate a moment
 * of staleness (the metrics, the exports, the large lists a dashboard pages through) run on a streaming
 * replica, so they do not take the primary's connections and CPU from checkouts, renewals and jobs.
 *
 * THE RULE, in one place: a read goes to the replica only when its resolver asks for it by name
 * (`onReadReplica`), and only root `Query` resolvers of those heavy reads do. Everything else reads the
 * primary: every write path and its reads (a unit of work's transaction is always on the primary), every
 * get by id (a client reads what it just created), nested lists of a mutation's answer, the checkout,
 * confirm, renewal and job paths. A replica lags its primary, so a list served there may miss a write
 * made a moment ago; a get by id never does. Polar does the same: specific read-only endpoints take its
 * read session, everything else its primary session.
 *
 * Process-wide, keyed by the primary URL, as kit/database/direct-urls.ts is: one declaration where
 * configuration is read reaches the ORM of each environment. Unset, nothing changes: no replica is
 * configured, no pool is opened, and `onReadReplica` hands back the context it was given.
 */
const readUrls = new Map<string, string>();

/** Reads of `primaryUrl`'s database that may be stale go to `readUrl`, a replica of it. */
export function declareReadUrl(primaryUrl: string, readUrl: string | undefined): void {
  if (!readUrl || readUrl === primaryUrl) readUrls.delete(primaryUrl);
  else readUrls.set(primaryUrl, readUrl);
}

/** Declares the process's DATABASE_READ_URL (the distributed processes: one environment each, on DATABASE_URL). */
export function declareReadDatabase(config: { DATABASE_URL?: string; DATABASE_READ_URL?: string }): void {
  if (config.DATABASE_URL) declareReadUrl(config.DATABASE_URL, config.DATABASE_READ_URL);
}

/** The replica's URL for `primaryUrl`, or undefined when none is configured. */
export function readUrlOf(primaryUrl: string): string | undefined {
  return readUrls.get(primaryUrl);
}

/**
 * The ORM options that give `clientUrl`'s ORM its replica (MikroORM's own `replicas`): a pool of its own,
 * as bounded as the primary's (kit/database/waits.ts) and dropping ended sessions as it does.
 * `preferReadReplicas: false` whether or not a replica is configured: MikroORM would otherwise send every
 * `find` and query builder outside a transaction to the replica, which is exactly the read-after-write
 * this module exists to keep on the primary. Only an explicit `getConnection('read')` reaches it.
 */
export function readReplicaOptions(
  clientUrl: string,
  waits: DatabaseWaits,
  applicationName: string,
): Pick<Options, 'replicas' | 'preferReadReplicas'> {
  const readUrl = readUrlOf(clientUrl);
  if (!readUrl) return { preferReadReplicas: false };
  return {
    preferReadReplicas: false,
    replicas: [
      {
        name: 'read',
        clientUrl: readUrl,
        driverOptions: {
          application_name: applicationName,
          ...pooledConnectionSettings(waits, readUrl),
          onPoolCreated: forgetEndedSessions,
        },
      },
    ],
  };
}

/** The EntityManagers made by `onReadReplica`: their reads outside a transaction go to the replica. */
const replicaManagers = new WeakSet<EntityManager>();

/**
 * `ctx` with an EntityManager whose read-path statements run on the replica, for a root `Query`
 * resolver of a heavy, staleness-tolerant read (see the rule above). `ctx` itself when the ORM has
 * no replica. Never for a write, a get by id or anything a mutation answers.
 */
export function onReadReplica<C extends { em: EntityManager }>(ctx: C): C {
  if (!ctx.em.config.get('replicas')?.length) return ctx;
  const em = ctx.em.fork();
  replicaManagers.add(em);
  return { ...ctx, em, reader: em };
}

/** Which of its ORM's connections `em`'s reads outside a transaction use. */
export function connectionTypeOf(em: EntityManager): 'read' | 'write' {
  return replicaManagers.has(em) && !em.getTransactionContext() ? 'read' : 'write';
}

/** Socket errors (no SQLSTATE) and SQLSTATEs that say the replica cannot serve, not that the read was wrong. */
const REPLICA_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
const REPLICA_DOWN_SQLSTATES = /^(08...|57P01|57P02|57P03|40001)$/; // connection, shutdown, starting, recovery conflict
const REPLICA_DOWN_MESSAGE = /Connection terminated|connect ECONNREFUSED|the database system is (starting|shutting) up/;

/**
 * Runs `read` on `em`'s connection; on the replica, a failure to reach it (refused, dropped, shutting
 * down, a statement cancelled by replay) becomes 503 `ServiceUnavailable` at once: the heavy read is not
 * moved onto the primary the replica exists to protect (docs/read-replicas.md#when-the-replica-is-down).
 * The acquire timeout bounds a replica that does not answer at all, as it bounds every pool.
 */
export async function onConnectionOf<T>(em: EntityManager, read: (type: 'read' | 'write') => Promise<T>): Promise<T> {
  const type = connectionTypeOf(em);
  if (type === 'write') return read(type);
  try {
    return await read(type);
  } catch (error) {
    if (!isReplicaDown(error)) throw error;
    throw new ServiceUnavailable('The read replica is unavailable. Try again shortly.', { replica: 'unavailable' });
  }
}

function isReplicaDown(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string') {
      if (REPLICA_DOWN_CODES.has(candidate.code) || REPLICA_DOWN_SQLSTATES.test(candidate.code)) return true;
    }
    if (typeof candidate.message === 'string' && REPLICA_DOWN_MESSAGE.test(candidate.message)) return true;
    current = candidate.cause;
  }
  return false;
}
