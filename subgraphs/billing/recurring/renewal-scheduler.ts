import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import type { RenewalEngine } from './renewal-engine.js';

/**
 * The production side of the recurring engine: every `intervalMs` it runs everything due by the wall
 * clock (`RenewalEngine.runUntilIdle` over all organizations), one run at a time per process. Any
 * number of processes may run it over one database: rows are claimed with SKIP LOCKED and exactly once
 * is the database's. In the sandbox it runs too (an organization whose clock was never moved lives on
 * the wall clock); the sandbox clock's advance runs the same engine for one organization.
 */
export class RenewalScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly engine: RenewalEngine,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  /** One pass over everything due now; resolves with how many subscriptions or orders it moved. */
  tick(): Promise<number> {
    return this.engine.runUntilIdle({ organizationId: null, at: this.clock.now() });
  }

  start(intervalMs: number): void {
    if (this.timer || intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tick()
        .catch(error => this.logger?.error({ err: error }, 'renewal scheduler pass failed'))
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops polling and waits for the pass under way, so shutdown never cuts a renewal's transaction. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
