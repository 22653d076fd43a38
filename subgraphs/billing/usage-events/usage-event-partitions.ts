import type { MikroORM } from '@mikro-orm/postgresql';
import { backgroundWork, type Enrolment } from '../../../kit/background/background-work.js';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import { monthOf, UsageEventQueries } from './usage-event.queries.js';

/** How many months after the current one have their partition made ahead. */
export const PARTITION_MONTHS_AHEAD = 2;

/** The first instant of the UTC month `n` months after the one of `at`. */
function monthStart(at: Date, n: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + n, 1));
}

/**
 * The usage events' monthly partitions, made ahead of time by a worker on the background-work spine
 * (docs/usage-events.md#partitions): the current month's and the next `PARTITION_MONTHS_AHEAD`, by the clock, so the
 * ingest's own on-demand check (the same `ensurePartitions`, whose in-process memory of the months seen this worker
 * fills) finds them made and no ingest takes the parent table's lock for DDL at a month's turn. A pass runs SQL only
 * for a month this process has not seen yet; then it waits for the next month's start (or the safety poll, which
 * finds nothing to do without a statement), so an idle service stays idle.
 */
export class UsageEventPartitions {
  private readonly loop: Enrolment;
  /** Whether this process has checked every partition has the `xid` index (once: later ones get it at creation). */
  private indexed = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {
    this.loop = backgroundWork.enrol({
      name: 'billing.usage-partitions',
      topics: [],
      runDue: async () => {
        const now = this.clock.now();
        await this.ensureAhead(now);
        if (!this.indexed) this.indexed = (await this.ensureIndexes()) >= 0;
        return { worked: false, nextDueInMs: monthStart(now, 1).getTime() - now.getTime() };
      },
      failed: error => this.logger?.error({ err: error }, 'usage event partitions pass failed'),
      retryMs: 60_000,
      errorPauseMs: 60_000,
      clock,
    });
  }

  /** The partitions of the month of `now` and the next ones, made when missing. */
  ensureAhead(now: Date): Promise<void> {
    const months = Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, n) => monthStart(now, n));
    return new UsageEventQueries(this.orm.em.fork()).ensurePartitions(months.map(monthOf));
  }

  /** The partitions' `xid` indexes, built where missing (outside any transaction); answers how many were built. */
  ensureIndexes(): Promise<number> {
    return new UsageEventQueries(this.orm.em.fork()).ensureXidIndexes();
  }

  /** Starts the loop (woken by time and clock jumps only). */
  start(): Promise<void> {
    return this.loop.run();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
