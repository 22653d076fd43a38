import type { Clock } from '../clock.js';
import { listenForWork, type WorkSubscription } from '../database/work-signals.js';
import { outsideRequest } from '../request-scope.js';

/**
 * The longest a worker waits without a wake-up. Writers notify at commit and a listener that reconnects
 * wakes every worker, so this only bounds the cost of a notification lost some other way.
 */
export const SAFETY_POLL_MS = 5 * 60_000;

/** What a pass found. */
export interface WorkPass {
  /** The pass got something done (a pass that did nothing and finds work due waits `retryMs`). */
  worked: boolean;
  /**
   * When the next work falls due, from now, read from the data (≤ 0: due already, so a pass that
   * worked runs again at once); null when nothing is due (the worker waits for a wake-up).
   */
  nextDueInMs: number | null;
}

/** One kind of background work (jobs, due work, a relay, webhook delivery) as the spine runs it. */
export interface BackgroundWorker {
  /** For logs. */
  readonly name: string;
  /** The topics on WORK_CHANNEL (kit/database/work-signals.ts) whose commits wake it. */
  readonly topics: readonly string[];
  /** One pass over the work due now, and when the next falls due. Never run twice at once. */
  runDue(): Promise<WorkPass>;
  /** A pass threw: log it; the worker tries again after `errorPauseMs`. */
  failed(error: unknown): void;
  /**
   * After a pass that did nothing while work is due (another process holds it, or it failed and stays
   * due): look again after this.
   */
  readonly retryMs: number;
  readonly errorPauseMs: number;
  /** The longest wait (SAFETY_POLL_MS unless given). */
  readonly safetyPollMs?: number;
  /** The clock due times are read by: when it jumps (tests' ManualClock), the worker looks again. */
  readonly clock?: Clock;
}

/** A worker's place on the spine: what its owner starts, wakes and stops. */
export interface Enrolment {
  /**
   * Wakes it on every commit that notifies one of its topics on this database (by any process), and
   * whenever the listen connection comes up again; resolves once listening. Call before `start` so
   * nothing committed in between is missed.
   */
  listen(databaseUrl: string): Promise<void>;
  /** Runs a first pass now (what a crash left behind), then passes as wake-ups and due times say. */
  start(): void;
  /**
   * `listen` (when a database is given) then `start`, once: a second call does nothing. What the
   * owners of the work (job runner, due-work sweep, renewal scheduler) call to start.
   */
  run(databaseUrl?: string): Promise<void>;
  /** Runs a pass soon: at once when idle, right after the pass in flight otherwise. */
  wake(): void;
  /** No more passes; resolves once the pass in flight has finished (shutdown drains, never cuts). */
  stop(): Promise<void>;
}

interface Entry {
  readonly worker: BackgroundWorker;
  readonly databases: Set<string>;
  started: boolean;
  /** `run` was called (set before its listen resolves, so a second call returns at once). */
  running: boolean;
  stopped: boolean;
  /** The pass in flight (never rejects). */
  pass: Promise<void> | undefined;
  /** Woken during a pass: the next follows at once. */
  woken: boolean;
  /** When its next pass is due, in performance.now() milliseconds (Infinity: only on a wake-up). */
  dueAt: number;
  unwatch: (() => void) | undefined;
}

interface Listening {
  readonly subscription: Promise<WorkSubscription>;
  readonly entries: Set<Entry>;
}

/**
 * The background-work spine: every worker of the process on one loop, with one timer (set for the
 * earliest due pass of any worker) and one subscription to WORK_CHANNEL per database, which wakes the
 * workers of the notified topic. Each worker runs one pass at a time, and the passes of different
 * workers run side by side (a long job does not hold up the outbox). With nothing due and nothing
 * notified no timer fires before the safety poll, and no worker touches the database. docs/background-work.md.
 */
export class BackgroundWork {
  private readonly entries = new Set<Entry>();
  private readonly databases = new Map<string, Listening>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private pumpQueued = false;

  /** Puts a worker on the spine; it runs nothing until `start`. */
  enrol(worker: BackgroundWorker): Enrolment {
    const entry: Entry = {
      worker,
      databases: new Set(),
      started: false,
      running: false,
      stopped: false,
      pass: undefined,
      woken: false,
      dueAt: Number.POSITIVE_INFINITY,
      unwatch: undefined,
    };
    this.entries.add(entry);
    return {
      listen: databaseUrl => this.listen(entry, databaseUrl),
      start: () => this.start(entry),
      run: async databaseUrl => {
        if (entry.running) return;
        entry.running = true;
        if (databaseUrl) await this.listen(entry, databaseUrl);
        this.start(entry);
      },
      wake: () => this.wake(entry),
      stop: () => this.stop(entry),
    };
  }

  /** The workers on the spine, by name (tests, logs). */
  get workerNames(): string[] {
    return [...this.entries].map(entry => entry.worker.name);
  }

  private async listen(entry: Entry, databaseUrl: string): Promise<void> {
    if (entry.stopped || entry.databases.has(databaseUrl)) return;
    let listening = this.databases.get(databaseUrl);
    if (!listening) {
      const entries = new Set<Entry>();
      const subscription = listenForWork(databaseUrl, {
        notified: topic => {
          for (const each of entries) if (each.worker.topics.includes(topic)) this.wake(each);
        },
        listening: () => {
          for (const each of entries) this.wake(each);
        },
      });
      listening = { subscription, entries };
      this.databases.set(databaseUrl, listening);
      subscription.catch(() => {
        if (this.databases.get(databaseUrl) === listening) this.databases.delete(databaseUrl);
      });
    }
    entry.databases.add(databaseUrl);
    listening.entries.add(entry);
    await listening.subscription;
  }

  private start(entry: Entry): void {
    if (entry.started || entry.stopped) return;
    entry.started = true;
    entry.unwatch = entry.worker.clock?.watch?.(() => this.wake(entry));
    entry.dueAt = 0;
    this.schedulePump();
  }

  private wake(entry: Entry): void {
    if (entry.stopped) return;
    if (entry.pass) {
      entry.woken = true;
      return;
    }
    entry.dueAt = 0;
    // Not yet started: the first pass comes with `start`.
    if (entry.started) this.schedulePump();
  }

  private async stop(entry: Entry): Promise<void> {
    if (!this.entries.has(entry)) return;
    entry.stopped = true;
    entry.unwatch?.();
    entry.unwatch = undefined;
    await entry.pass;
    this.entries.delete(entry);
    this.pump();
    const closing: Promise<unknown>[] = [];
    for (const databaseUrl of entry.databases) {
      const listening = this.databases.get(databaseUrl);
      if (!listening) continue;
      listening.entries.delete(entry);
      if (listening.entries.size > 0) continue;
      this.databases.delete(databaseUrl);
      closing.push(listening.subscription.then(s => s.close()).catch(() => undefined));
    }
    await Promise.all(closing);
  }

  /** Runs the due workers from a fresh task, so that `wake()` never runs a pass inside its caller. */
  private schedulePump(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /**
   * Starts a pass of every started worker that is due and idle, then sets the one timer for the rest.
   * Outside any request: a request that woke a worker must not lend it its id (kit/request-scope.ts).
   */
  private pump(): void {
    outsideRequest(() => this.pumpNow());
  }

  private pumpNow(): void {
    const now = performance.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const entry of this.entries) {
      if (!entry.started || entry.stopped || entry.pass) continue;
      if (entry.dueAt <= now) this.runPass(entry);
      else earliest = Math.min(earliest, entry.dueAt);
    }
    this.arm(earliest);
  }

  private runPass(entry: Entry): void {
    entry.woken = false;
    entry.dueAt = Number.POSITIVE_INFINITY;
    entry.pass = (async () => {
      let pause: number;
      try {
        pause = this.pauseAfter(entry.worker, await entry.worker.runDue());
      } catch (error) {
        entry.worker.failed(error);
        pause = entry.worker.errorPauseMs;
      }
      entry.dueAt = entry.woken ? 0 : performance.now() + pause;
    })()
      .catch(() => {
        // `failed` itself threw: the pause is the error pause all the same.
        entry.dueAt = performance.now() + entry.worker.errorPauseMs;
      })
      .finally(() => {
        entry.pass = undefined;
        if (!entry.stopped) this.pump();
      });
  }

  private pauseAfter(worker: BackgroundWorker, pass: WorkPass): number {
    const longest = worker.safetyPollMs ?? SAFETY_POLL_MS;
    if (pass.nextDueInMs === null) return longest;
    if (pass.nextDueInMs <= 0) return pass.worked ? 0 : worker.retryMs;
    return Math.min(Math.ceil(pass.nextDueInMs), longest);
  }

  /** The one timer, for the earliest due pass (none: nothing is waiting for time). */
  private arm(at: number): void {
    if (at === this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === Number.POSITIVE_INFINITY) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(0, Math.ceil(at - performance.now())),
    );
  }
}

/**
 * The process's spine: every runtime of the process (billing, identity, webhooks, of each environment)
 * puts its workers here, so the process has one loop and one timer for all of them.
 */
export const backgroundWork = new BackgroundWork();
