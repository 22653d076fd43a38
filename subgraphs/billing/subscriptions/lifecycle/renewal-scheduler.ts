import type { Clock } from '../../../../kit/clock.js';
import type { Logger } from '../../../../kit/logger.js';
import { backgroundWork, type Enrolment } from '../../../../kit/background/background-work.js';
import { RENEWALS_TOPIC, type RenewalEngine } from './renewal-engine.js';

/**
 * The production side of the recurring engine: it runs everything due by the wall clock
 * (`RenewalEngine.runUntilIdle` over all organizations), one run at a time per process, at the instant
 * the next piece falls due (a period's end, a dunning retry, a scheduled resume: `nextDueOverall`), when
 * a write may bring that instant closer (triggers on subscriptions and orders notify RENEWALS_TOPIC, from
 * any process on the database), at start and when the clock jumps (tests). With nothing due it does
 * not query. Any number of processes may run it over one database: rows are claimed with SKIP LOCKED and
 * exactly once is the database's. In the sandbox it runs too (an organization whose clock was never
 * moved lives on the wall clock); the sandbox clock's advance runs the same engine for one organization.
 */
export class RenewalScheduler {
  private readonly loop: Enrolment;

  constructor(
    private readonly engine: RenewalEngine,
    private readonly clock: Clock,
    private readonly logger?: Logger,
    /** How soon to look again at work still due after a pass (a failed charge, rows another process held). */
    retryMs = 10_000,
  ) {
    this.loop = backgroundWork.enrol({
      name: 'billing.renewals',
      topics: [RENEWALS_TOPIC],
      runDue: async () => {
        await this.tick();
        const due = await this.engine.nextDueOverall();
        return { worked: false, nextDueInMs: due ? due.getTime() - this.clock.now().getTime() : null };
      },
      failed: error => this.logger?.error({ err: error }, 'renewal scheduler pass failed'),
      retryMs,
      errorPauseMs: retryMs,
      clock,
    });
  }

  /** One pass over everything due now; resolves with how many subscriptions or orders it moved. */
  tick(): Promise<number> {
    return this.engine.runUntilIdle({ organizationId: null, at: this.clock.now() });
  }

  /** Starts the loop, woken by RENEWALS_TOPIC on `databaseUrl` (none: only by time). */
  start(databaseUrl?: string): Promise<void> {
    return this.loop.run(databaseUrl);
  }

  /** Stops the loop and waits for the pass under way, so shutdown never cuts a renewal's transaction. */
  async stop(): Promise<void> {
    await this.loop.stop();
  }
}
