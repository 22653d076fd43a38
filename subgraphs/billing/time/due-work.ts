import type { Clock } from '../../../kit/clock.js';

/**
 * The hook the recurring engine plugs into the sandbox clock: billing work that falls due at an instant
 * (renewals, trial ends, cancellations and pauses at period end, resumes, dunning retries, checkout
 * expiry). An advance of an organization's clock asks every registered runner for its earliest due
 * instant, moves the clock there, runs every runner's work due at that instant in registration order,
 * and repeats until nothing is due up to the target: boundaries run in order, each stamped with its
 * own instant, and the advance answers only when all of it has run.
 *
 * The production scheduler runs the same `runDue` with the wall clock (or the organization's clock),
 * so the sandbox exercises the production code path. A runner must make progress: after `runDue(at)`
 * it must not report work due at or before `at` again (the advance gives up after 10,000 steps).
 */
export interface DueWork {
  organizationId: string;
  /** The instant the work is due and stamped with (the organization's clock reads this). */
  at: Date;
  /** A clock fixed at `at`, for code that takes a Clock. */
  clock: Clock;
}

export interface DueWorkRunner {
  /** For logs and errors. */
  readonly name: string;
  /**
   * The earliest instant ≤ `upTo` at which this organization has work due, or null. Overdue work (due
   * before the clock's current time) is reported too; it runs at the current time.
   */
  nextDueAt(organizationId: string, upTo: Date): Promise<Date | null>;
  /** Runs everything due at or before `work.at` for the organization, each in its own transaction(s). */
  runDue(work: DueWork): Promise<void>;
}

/**
 * A runner the production sweep (due-work-sweep.ts) can drive too: it names the organizations that
 * have work due by an instant of the wall clock, and the sweep runs each at that organization's time.
 */
export interface SweepableDueWorkRunner extends DueWorkRunner {
  /** Up to `limit` organizations with work due at or before `now`. */
  organizationsDue(now: Date, limit: number): Promise<string[]>;
  /** The earliest instant any organization has work due (overdue included), or null: the sweep waits for it. */
  nextDueOverall(): Promise<Date | null>;
  /**
   * The topic a trigger notifies when a write may bring that instant closer (kit/database/work-signals.ts):
   * the sweep looks again then.
   */
  readonly topic: string;
}

/**
 * How a runner works off an organization's due rows: `step` claims at most `limit` of them, acts and
 * commits, in one transaction, and answers how many it claimed; a step that claimed fewer was the last.
 * A backlog (a long outage, a sandbox clock moved by a year) is worked off in bounded transactions, never
 * one long one. How a row is claimed is the runner's: a state change that is itself the claim
 * (checkout expiry's `update … where status = 'open'`), or a row lock and a mark (the reminders').
 */
export async function inBatches(limit: number, step: (limit: number) => Promise<number>): Promise<void> {
  while ((await step(limit)) >= limit);
}
