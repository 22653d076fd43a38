import type { Clock } from './clock.js';
import { listenForWork, type WorkSubscription } from './database/work-signals.js';

/**
 * The longest a loop waits without a wake-up. Writers notify at commit and a listener that reconnects
 * wakes every loop, so this only bounds the cost of a notification lost some other way.
 */
export const SAFETY_POLL_MS = 5 * 60_000;

/** What a pass found. */
export interface WorkPass {
  /** The pass got something done (a pass that did nothing and finds work due waits `retryMs`). */
  worked: boolean;
  /**
   * When the next work falls due, from now, read from the data (≤ 0: due already, so a pass that
   * worked runs again at once); null when nothing is due (the loop waits for a wake-up).
   */
  nextDueInMs: number | null;
}

export interface WorkStep {
  /** One pass over the work due now. */
  run(): Promise<WorkPass>;
  /** A pass threw: log it; the loop tries again after `errorPauseMs`. */
  failed(error: unknown): void;
}

export interface WorkLoopTiming {
  /**
   * After a pass that did nothing while work is due (another process holds it, or it failed and stays
   * due): look again after this.
   */
  retryMs: number;
  errorPauseMs: number;
  /** The longest wait (SAFETY_POLL_MS unless given). */
  safetyPollMs?: number;
  /** The clock due times are read by: when it jumps (tests' ManualClock), the loop looks again. */
  clock?: Clock;
}

/**
 * The loop of a background worker (relays, jobs, due work): a pass, then a wait until the next work
 * falls due, or until `wake()` (a notification of new work on the database, see `listen`, or an
 * in-process hint) cuts it short. With nothing due it waits without touching the database, up to the
 * safety poll. A wake-up during a pass is not lost: the next pass follows at once. `stop()` ends the
 * wait and resolves once the pass in flight has finished.
 */
export class WorkLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private readonly subscriptions: Promise<WorkSubscription>[] = [];
  private unwatch: (() => void) | undefined;

  constructor(
    private readonly step: WorkStep,
    private readonly timing: WorkLoopTiming,
  ) {}

  /**
   * Wakes on every commit that notifies `topic` on this database (kit/database/work-signals.ts), from
   * any process; resolves once listening. Call before `start` so nothing committed in between is missed.
   */
  async listen(databaseUrl: string, topic: string): Promise<void> {
    const subscription = listenForWork(databaseUrl, topic, () => this.wake());
    this.subscriptions.push(subscription);
    await subscription;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unwatch = this.timing.clock?.watch?.(() => this.wake());
    this.loop = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unwatch?.();
    this.unwatch = undefined;
    this.wakeUp?.();
    await this.loop;
    const subscriptions = this.subscriptions.splice(0);
    await Promise.all(subscriptions.map(s => s.then(x => x.close()).catch(() => undefined)));
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let pause: number;
      try {
        pause = this.pauseAfter(await this.step.run());
      } catch (error) {
        this.step.failed(error);
        pause = this.timing.errorPauseMs;
      }
      if (pause > 0 && this.running && !this.woken) await this.sleep(pause);
    }
  }

  private pauseAfter(pass: WorkPass): number {
    const longest = this.timing.safetyPollMs ?? SAFETY_POLL_MS;
    if (pass.nextDueInMs === null) return longest;
    if (pass.nextDueInMs <= 0) return pass.worked ? 0 : this.timing.retryMs;
    return Math.min(Math.ceil(pass.nextDueInMs), longest);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise(resolve => {
      const timer = setTimeout(done, ms);
      const loop = this;
      function done() {
        clearTimeout(timer);
        loop.wakeUp = undefined;
        resolve();
      }
      this.wakeUp = done;
    });
  }
}
