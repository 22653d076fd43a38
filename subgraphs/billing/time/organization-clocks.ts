import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactionContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { EnvironmentName } from '../../../kit/config.js';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import { AdvanceTurns } from './advance-turns.js';
import type { DueWorkRunner } from './due-work.js';
import { SandboxClockBusy } from './sandbox-clock.errors.js';
import { MAX_ADVANCE_SECONDS } from './sandbox-clock.limits.js';
import {
  claimClockLease,
  moveLeasedClock,
  readClockOffset,
  releaseClockLease,
  renewClockLease,
} from './sandbox-clock.repository.js';

/**
 * What time it is for one organization's objects in this request: its sandbox clock in the sandbox,
 * the request's clock otherwise. Every write that stamps an organization's billing objects (periods,
 * orders, events) takes its time here.
 */
export async function organizationNow(ctx: RequestContext, organizationId: string): Promise<Date> {
  return (ctx.clockFor ? await ctx.clockFor(organizationId) : ctx.clock).now();
}

/** A clock that always reads one instant. */
export function fixedClock(at: Date): Clock {
  return { now: () => new Date(at.getTime()) };
}

/** A clock running `offsetMs` ahead of `base`. */
function offsetClock(base: Clock, offsetMs: number): Clock {
  return offsetMs === 0 ? base : { now: () => new Date(base.now().getTime() + offsetMs) };
}

/** How far to move: to an instant, or by a number of seconds. */
export type ClockAdvance = { to: Date } | { seconds: number };

const MAX_STEPS = 10_000;

export interface AdvanceLimits {
  /**
   * How long (real time) an advance waits for another advance of the same organization, in this
   * process or another, before it answers 409 `SandboxClockBusy`. Default 5 s.
   */
  waitMs?: number;
  /** How long a lease lasts unless renewed (every third of it while the advance works). Default 30 s. */
  leaseMs?: number;
}

const DEFAULT_WAIT_MS = 5000;
const DEFAULT_LEASE_MS = 30_000;
/** Advances of one organization in line in this process, the running one included; past it: 409 at once. */
const MAX_IN_LINE = 16;
/** Pauses between claims of a lease another process holds: 25 ms, doubling up to 250 ms. */
const FIRST_RETRY_MS = 25;
const MAX_RETRY_MS = 250;

/**
 * The time each organization's billing lives in: the clock the recurring engine takes per organization
 * (`clockFor`). In production it is the wall clock (the injected base clock), always. In the sandbox an
 * organization's clock runs ahead of the wall clock by an offset stored in `billing.sandbox_clocks`
 * (none: the wall clock) and keeps ticking from there; `advance` moves it forward only, running the
 * registered due-work runners (due-work.ts) at every instant they report on the way.
 */
export class OrganizationClocks {
  private readonly runners: DueWorkRunner[] = [];
  private readonly turns = new AdvanceTurns(MAX_IN_LINE);
  private readonly waitMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly base: Clock,
    readonly environment: EnvironmentName,
    limits: AdvanceLimits = {},
  ) {
    this.waitMs = limits.waitMs ?? DEFAULT_WAIT_MS;
    this.leaseMs = limits.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Adds a runner; runners at one instant run in the order they were registered. Answers its removal. */
  register(runner: DueWorkRunner): () => void {
    this.runners.push(runner);
    return () => {
      const at = this.runners.indexOf(runner);
      if (at >= 0) this.runners.splice(at, 1);
    };
  }

  /**
   * The organization's clock. One read of its offset; the clock then ticks with the base clock. Called
   * from inside a transaction of the same database (`em.transactional` keeps its manager in an async
   * context), the read goes through that transaction's connection: a fork would take a second
   * connection from the pool while the first is held, and enough concurrent requests doing so
   * exhaust the pool and wait on each other forever.
   */
  async clockFor(em: EntityManager, organizationId: string): Promise<Clock> {
    if (this.environment !== 'sandbox') return this.base;
    const open = TransactionContext.getEntityManager(em.name) as EntityManager | undefined;
    const reader = open && open.getDriver() === em.getDriver() && open.isInTransaction() ? open : em.fork();
    return offsetClock(this.base, await readClockOffset(reader, organizationId));
  }

  /**
   * The organization's clock read through `em` itself (inside its transaction): a write that already
   * holds a connection and row locks takes no second connection from the pool to learn the time.
   */
  async clockIn(em: EntityManager, organizationId: string): Promise<Clock> {
    if (this.environment !== 'sandbox') return this.base;
    return offsetClock(this.base, await readClockOffset(em, organizationId));
  }

  /**
   * Moves the organization's clock forward and answers its time once every runner's work due up to
   * then has run. Never backwards, never more than MAX_ADVANCE_SECONDS: 422 at `body.to` (or
   * `body.seconds`). Two advances of one organization run one after the other: the later one waits
   * (in line in this process, then polling the lease another process holds) at most `waitMs`, holding
   * no database connection, and answers 409 `SandboxClockBusy` if its turn has not come by then.
   *
   * The advance that runs holds the organization's lease (`billing.sandbox_clocks.advance_token`),
   * claimed, renewed and given up by single short statements, never a connection or a transaction
   * across the runners' work: the runners take the pooled connections they need, one at a time, as
   * any request does. A crashed advance's lease runs out after `leaseMs` and is taken over.
   */
  async advance(em: EntityManager, organizationId: string, by: ClockAdvance): Promise<Date> {
    if (this.environment !== 'sandbox') throw new Error('The sandbox clock does not exist in production');
    if ('seconds' in by && by.seconds > MAX_ADVANCE_SECONDS) throw tooFar(by, null);
    // Real time, not the injected clock: a wait is a wait even when a test's clock stands still.
    const deadline = Date.now() + this.waitMs;
    return this.turns.inTurn(
      organizationId,
      deadline,
      () => busy(this.waitMs),
      () => this.advanceLeased(em, organizationId, by, deadline),
    );
  }

  private async advanceLeased(
    em: EntityManager,
    organizationId: string,
    by: ClockAdvance,
    deadline: number,
  ): Promise<Date> {
    const token = randomUUID();
    const offset = await this.claim(em, organizationId, token, deadline);
    const lease = new LeaseRenewal(() => renewClockLease(em.fork(), organizationId, token, this.leaseMs), this.leaseMs);
    let released = false;
    try {
      const now = new Date(this.base.now().getTime() + offset);
      const target = 'to' in by ? by.to : new Date(now.getTime() + by.seconds * 1000);
      if (target.getTime() < now.getTime()) throw backwards(by, now);
      if (target.getTime() - now.getTime() > MAX_ADVANCE_SECONDS * 1000) throw tooFar(by, now);

      let current = now;
      for (let step = 0; ; step += 1) {
        if (step === MAX_STEPS) throw new Error(`sandbox clock: more than ${MAX_STEPS} steps of due work`);
        if (lease.lost) throw takenOver();
        const due = await this.earliestDue(organizationId, target);
        if (!due) break;
        const at = due.getTime() > current.getTime() ? due : current;
        // Committed before the work runs, so code that reads the organization's clock sees `at`.
        await this.setClock(em, organizationId, token, at, false);
        for (const runner of this.runners) {
          await runner.runDue({ organizationId, at, clock: fixedClock(at) });
        }
        current = at;
        if (at.getTime() === target.getTime()) break;
      }
      await this.setClock(em, organizationId, token, target, true);
      released = true;
      return target;
    } finally {
      lease.stop();
      // On a failure the clock stays at the last instant whose work was committed.
      if (!released) await releaseClockLease(em.fork(), organizationId, token).catch(() => undefined);
    }
  }

  /** Claims the organization's lease, retrying while another process holds it, until `deadline`. */
  private async claim(em: EntityManager, organizationId: string, token: string, deadline: number): Promise<number> {
    for (let pause = FIRST_RETRY_MS; ; pause = Math.min(pause * 2, MAX_RETRY_MS)) {
      const offset = await claimClockLease(em.fork(), organizationId, token, this.leaseMs, this.base.now());
      if (offset !== null) return offset;
      const left = deadline - Date.now();
      if (left <= 0) throw busy(this.waitMs);
      await sleep(Math.min(pause, left));
    }
  }

  private async earliestDue(organizationId: string, upTo: Date): Promise<Date | null> {
    let earliest: Date | null = null;
    for (const runner of this.runners) {
      const due = await runner.nextDueAt(organizationId, upTo);
      if (due && due.getTime() <= upTo.getTime() && (!earliest || due.getTime() < earliest.getTime())) earliest = due;
    }
    return earliest;
  }

  private async setClock(
    em: EntityManager,
    organizationId: string,
    token: string,
    at: Date,
    release: boolean,
  ): Promise<void> {
    const wall = this.base.now();
    // The clock never runs behind the wall clock: if the wall clock has passed `at` meanwhile, offset 0.
    const offset = Math.max(0, at.getTime() - wall.getTime());
    if (!(await moveLeasedClock(em.fork(), organizationId, token, offset, wall, release))) throw takenOver();
  }
}

/** Renews a lease every third of its length while the advance works; `lost` once it was not held any more. */
class LeaseRenewal {
  lost = false;
  private readonly timer: NodeJS.Timeout;

  constructor(renew: () => Promise<boolean>, leaseMs: number) {
    this.timer = setInterval(() => {
      // A renewal that fails (the database busy) is tried again at the next tick; the lease has two.
      renew().then(
        held => {
          if (!held) this.lost = true;
        },
        () => undefined,
      );
    }, leaseMs / 3);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

function busy(waitMs: number): SandboxClockBusy {
  return new SandboxClockBusy(
    `Another advance of this organization's sandbox clock is running and did not end within ${waitMs} ms. ` +
      'Send this advance again once it has answered.',
  );
}

function takenOver(): SandboxClockBusy {
  return new SandboxClockBusy(
    "This advance stopped: its hold on the organization's sandbox clock ran out and another advance took " +
      'the clock over. The clock reads the last instant whose due work was done; send the advance again.',
  );
}

function tooFar(by: ClockAdvance, now: Date | null): PolarRequestValidationError {
  const field = 'to' in by ? 'to' : 'seconds';
  const limit = `The clock moves at most ${MAX_ADVANCE_SECONDS} seconds (${MAX_ADVANCE_SECONDS / 86_400} days) at a time`;
  return new PolarRequestValidationError([
    {
      type: 'value_error',
      loc: ['body', field],
      msg:
        now && 'to' in by
          ? `Value error, ${limit}: it reads ${now.toISOString()}, so \`to\` may be at most ${new Date(now.getTime() + MAX_ADVANCE_SECONDS * 1000).toISOString()}.`
          : `Value error, ${limit}.`,
      input: 'to' in by ? by.to.toISOString() : by.seconds,
    },
  ]);
}

function backwards(by: ClockAdvance, now: Date): PolarRequestValidationError {
  const field = 'to' in by ? 'to' : 'seconds';
  return new PolarRequestValidationError([
    {
      type: 'value_error',
      loc: ['body', field],
      msg: `Value error, The clock only moves forward: it reads ${now.toISOString()}.`,
      input: 'to' in by ? by.to.toISOString() : by.seconds,
    },
  ]);
}
