import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import type { SweepableDueWorkRunner } from './due-work.js';
import { fixedClock, type OrganizationClocks } from './organization-clocks.js';

// Organizations taken per runner and pass; the next pass takes the rest.
const ORGANIZATIONS_PER_PASS = 100;

/**
 * The production side of due work: every `intervalMs`, each runner names the organizations with work
 * due by the base clock, and the sweep runs that work at each organization's time (its clock: the wall
 * clock in production; in the sandbox a clock ahead of it, so work due by the wall clock is due there
 * too). Runners claim their rows themselves (`update … where status = …`), so several processes may
 * sweep at once. Started with the billing runtime, stopped (and awaited) on shutdown.
 */
export class DueWorkSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly base: Clock,
    private readonly clocks: OrganizationClocks,
    private readonly runners: readonly SweepableDueWorkRunner[],
    private readonly logger?: Logger,
  ) {}

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .then(() => undefined)
        .catch(error => this.logger?.error({ err: error }, 'due work sweep failed'))
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: every runner's overdue organizations; answers how many organizations it ran. */
  async sweep(): Promise<number> {
    let ran = 0;
    const now = this.base.now();
    for (const runner of this.runners) {
      for (const organizationId of await runner.organizationsDue(now, ORGANIZATIONS_PER_PASS)) {
        const at = (await this.clocks.clockFor(this.orm.em.fork(), organizationId)).now();
        await runner.runDue({ organizationId, at, clock: fixedClock(at) });
        ran += 1;
      }
    }
    return ran;
  }
}
