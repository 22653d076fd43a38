import type { MikroORM } from '@mikro-orm/postgresql';
import { backgroundWork, type Enrolment } from '../../../kit/background/background-work.js';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import { MetricRollupQueries } from './metric-rollup.queries.js';

/**
 * The rollups' backfill (docs/metrics.md#rollups): the organizations that had rows when the rollups' triggers
 * came are listed not ready, and their requests read the raw rows until this worker has added their earlier rows,
 * one organization per transaction (`billing.metric_rollup_backfill`, under the organization's exclusive advisory
 * lock: its writers wait for it, which is what keeps the sums exact). Nothing new is ever listed (a new
 * organization is ready from its first row), so once none is left the worker only looks again at the safety poll.
 */
export class MetricRollupBackfill {
  private readonly loop: Enrolment;

  constructor(
    private readonly orm: MikroORM,
    clock: Clock,
    private readonly logger?: Logger,
  ) {
    this.loop = backgroundWork.enrol({
      name: 'billing.metric-rollups',
      topics: [],
      runDue: async () => {
        const done = await this.backfillOne();
        return { worked: done !== null, nextDueInMs: done === null ? null : 0 };
      },
      failed: error => this.logger?.error({ err: error }, 'metric rollup backfill failed'),
      retryMs: 10_000,
      errorPauseMs: 10_000,
      clock,
    });
  }

  /** Backfills one waiting organization; its id, or null when none waits. */
  async backfillOne(): Promise<string | null> {
    const queries = new MetricRollupQueries(this.orm.em.fork());
    const organizationId = await queries.nextWaiting();
    if (!organizationId) return null;
    await queries.backfill(organizationId);
    this.logger?.info({ organizationId }, 'metric rollups backfilled');
    return organizationId;
  }

  start(): Promise<void> {
    return this.loop.run();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
