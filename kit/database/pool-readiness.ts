import type { MikroORM } from '@mikro-orm/postgresql';
import type pg from 'pg';
import type { Logger } from '../logger.js';

/** How long readiness waits for a connection of each pool (a request would wait up to the acquire timeout). */
const READY_WITHIN_MS = 2000;

/** A connection pool readiness looks at, named for the log. */
export interface ReadinessPool {
  name: string;
  orm: MikroORM;
}

/**
 * `/readyz`: whether every pool of the process gives a connection within 2 s and PostgreSQL answers
 * `select 1` on it. A database that is up behind a pool whose connections are all held (and
 * requests queued behind them) is not ready: the requests routed here would wait and fail. Each pool
 * that fails is logged with what it saw (how many connections are open and how many requests wait).
 */
export async function poolsReady(pools: ReadinessPool[], logger: Logger, withinMs = READY_WITHIN_MS): Promise<boolean> {
  const answers = await Promise.all(
    pools.map(async ({ name, orm }) => {
      const problem = await poolProblem(await orm.driver.getConnection().getNativeClient(), withinMs).catch(
        (error: unknown) => `no pool: ${(error as Error)?.message ?? String(error)}`,
      );
      if (problem) logger.warn({ pool: name, problem }, 'not ready: a database connection pool does not answer');
      return problem === null;
    }),
  );
  return answers.every(Boolean);
}

/** What is wrong with the pool, or null when it gave a connection in time and the database answered on it. */
async function poolProblem(pool: pg.Pool, withinMs: number): Promise<string | null> {
  const acquiring = pool.connect();
  const client = await within(acquiring, withinMs).catch((error: unknown) => error as Error);
  if (client === TIMED_OUT) {
    // The request stays queued in the pool: give the connection back whenever it comes.
    acquiring.then(
      late => late.release(),
      () => undefined,
    );
    return (
      `no connection free within ${withinMs} ms (${pool.totalCount} open of ${pool.options.max}, ` +
      `${pool.waitingCount} requests waiting)`
    );
  }
  if (client instanceof Error) return `no connection: ${client.message}`;
  try {
    const answered = await within(client.query('select 1'), withinMs);
    if (answered === TIMED_OUT) {
      client.release(true);
      return `select 1 did not answer within ${withinMs} ms`;
    }
    client.release();
    return null;
  } catch (error) {
    client.release(true);
    return `select 1 failed: ${(error as Error).message}`;
  }
}

const TIMED_OUT = Symbol('timed out');

function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>(resolve => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
