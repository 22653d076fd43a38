import { TransactionContext } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { EnvironmentName } from '../../../kit/config.js';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { DueWorkRunner } from './due-work.js';
import { lockClock, readClockOffset, writeClockOffset } from './sandbox-clock.repository.js';

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

/**
 * The time each organization's billing lives in: the clock the recurring engine takes per organization
 * (`clockFor`). In production it is the wall clock (the injected base clock), always. In the sandbox an
 * organization's clock runs ahead of the wall clock by an offset stored in `billing.sandbox_clocks`
 * (none: the wall clock) and keeps ticking from there; `advance` moves it forward only, running the
 * registered due-work runners (due-work.ts) at every instant they report on the way.
 */
export class OrganizationClocks {
  private readonly runners: DueWorkRunner[] = [];

  constructor(
    private readonly base: Clock,
    readonly environment: EnvironmentName,
  ) {}

  /** Adds a runner; runners at one instant run in the order they were registered. */
  register(runner: DueWorkRunner): void {
    this.runners.push(runner);
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
   * then has run. Never backwards: a target before the clock's time is 422 at `body.to` (or
   * `body.seconds`). Two advances of one organization run one after the other.
   */
  async advance(em: EntityManager, organizationId: string, by: ClockAdvance): Promise<Date> {
    if (this.environment !== 'sandbox') throw new Error('The sandbox clock does not exist in production');
    return em.fork().transactional(async locked => {
      await lockClock(locked, organizationId);
      const now = new Date(this.base.now().getTime() + (await readClockOffset(locked, organizationId)));
      const target = 'to' in by ? by.to : new Date(now.getTime() + by.seconds * 1000);
      if (target.getTime() < now.getTime()) throw backwards(by, now);

      let current = now;
      for (let step = 0; ; step += 1) {
        if (step === MAX_STEPS) throw new Error(`sandbox clock: more than ${MAX_STEPS} steps of due work`);
        const due = await this.earliestDue(organizationId, target);
        if (!due) break;
        const at = due.getTime() > current.getTime() ? due : current;
        // Committed before the work runs, so code that reads the organization's clock sees `at`.
        await this.setClock(em, organizationId, at);
        for (const runner of this.runners) {
          await runner.runDue({ organizationId, at, clock: fixedClock(at) });
        }
        current = at;
        if (at.getTime() === target.getTime()) break;
      }
      await this.setClock(em, organizationId, target);
      return target;
    });
  }

  private async earliestDue(organizationId: string, upTo: Date): Promise<Date | null> {
    let earliest: Date | null = null;
    for (const runner of this.runners) {
      const due = await runner.nextDueAt(organizationId, upTo);
      if (due && due.getTime() <= upTo.getTime() && (!earliest || due.getTime() < earliest.getTime())) earliest = due;
    }
    return earliest;
  }

  private async setClock(em: EntityManager, organizationId: string, at: Date): Promise<void> {
    const wall = this.base.now();
    // The clock never runs behind the wall clock: if the wall clock has passed `at` meanwhile, offset 0.
    const offset = Math.max(0, at.getTime() - wall.getTime());
    await writeClockOffset(em.fork(), organizationId, offset, wall);
  }
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
