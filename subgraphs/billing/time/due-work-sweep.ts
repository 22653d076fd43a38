import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import { backgroundWork, type Enrolment } from '../../../kit/background/background-work.js';
import type { SweepableDueWorkRunner } from './due-work.js';
import { fixedClock, type OrganizationClocks } from './organization-clocks.js';

// Organizations taken per runner and pass; the next pass takes the rest.
const ORGANIZATIONS_PER_PASS = 100;

/**
 * The production side of due work: each runner names the organizations with work due by the base
 * clock, and the sweep runs that work at each organization's time (its clock: the wall clock in
 * production; in the sandbox a clock ahead of it, so work due by the wall clock is due there too).
 * Runners claim their rows themselves (`update … where status = …`), so several processes may sweep at
 * once. A pass runs at start, when the earliest due instant the runners report comes, when a runner's
 * topic is notified (a write that may bring that instant closer, by any process on the database) and
 * when the base clock jumps (tests); with nothing due it does not query. Started with the billing
 * runtime, stopped (and awaited) on shutdown.
 */
export class DueWorkSweep {
  private readonly loop: Enrolment;

  constructor(
    private readonly orm: MikroORM,
    private readonly base: Clock,
    private readonly clocks: OrganizationClocks,
    private readonly runners: readonly SweepableDueWorkRunner[],
    private readonly logger?: Logger,
    /** How soon to look again at work still due after a pass (rows another process held). */
    retryMs = 30_000,
  ) {
    this.loop = backgroundWork.enrol({
      name: 'billing.due-work',
      topics: runners.map(runner => runner.topic),
      runDue: async () => {
        const { full } = await this.sweepOnce();
        return { worked: full, nextDueInMs: full ? 0 : await this.nextDueInMs() };
      },
      failed: error => this.logger?.error({ err: error }, 'due work sweep failed'),
      retryMs,
      errorPauseMs: retryMs,
      clock: base,
    });
  }

  /** Starts the loop, woken by the runners' topics on `databaseUrl` (none: only by time). */
  start(databaseUrl?: string): Promise<void> {
    return this.loop.run(databaseUrl);
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: every runner's overdue organizations; answers how many organizations it ran. */
  async sweep(): Promise<number> {
    return (await this.sweepOnce()).ran;
  }

  /** A sweep, and whether a runner had a full page of organizations (more may be waiting). */
  private async sweepOnce(): Promise<{ ran: number; full: boolean }> {
    let ran = 0;
    let full = false;
    const now = this.base.now();
    for (const runner of this.runners) {
      const organizations = await runner.organizationsDue(now, ORGANIZATIONS_PER_PASS);
      for (const organizationId of organizations) {
        const at = (await this.clocks.clockFor(this.orm.em.fork(), organizationId)).now();
        await runner.runDue({ organizationId, at, clock: fixedClock(at) });
        ran += 1;
      }
      if (organizations.length === ORGANIZATIONS_PER_PASS) full = true;
    }
    return { ran, full };
  }

  /** Until the earliest instant any runner has work due, by the base clock; null: none. */
  private async nextDueInMs(): Promise<number | null> {
    let earliest: number | null = null;
    for (const runner of this.runners) {
      const at = await runner.nextDueOverall();
      if (at && (earliest === null || at.getTime() < earliest)) earliest = at.getTime();
    }
    return earliest === null ? null : earliest - this.base.now().getTime();
  }
}
