import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { faultPoint } from '../../../../kit/fault-injection.js';
import type { Logger } from '../../../../kit/logger.js';
import { metricsOn, renewals } from '../../../../kit/metrics/metrics.js';
import type { Order } from '../../orders/order.entity.js';
import type { PaymentProcessor } from '../../payments/payment-processor.js';
import { SubscriptionStatus } from '../../shared/enums.js';
import type { Subscription } from '../subscription.entity.js';
import type { Discount } from '../../discounts/discount.entity.js';
import {
  recordSubscriptionEvents,
  type SubscriptionChangeRecorder,
  subscriptionEventPayload,
} from '../subscription.events.js';
import { inSubscriptionFrame } from '../subscription-mutation.js';
import { dropEndedDiscount, endAtPeriodEnd, pauseAtEnd, renew } from '../transitions/lifecycle.js';
import type { DueWork, DueWorkRunner } from '../../time/due-work.js';
import { attemptPayment, discountForPeriod, nextPeriod, Stamp } from './renewal-billing.js';
import { applyPendingUpdate } from './renewal-adjustments.js';
import { billAndChargePeriod, RENEWAL_AFTER_CHARGE_FAULT, type RenewalEvents } from './renewal-first-charge.js';
import { resumeSubscription } from './resume.js';
import type { RenewalTax } from './renewal-tax.js';
import type { SaleTax } from '../../orders/sale-tax.js';
import { giveUpAbandonedPayments } from './abandoned-payments.js';
import { type RenewalKind, RenewalQueries } from './renewal.queries.js';

/** Crash test point: a renewal (or a retry) charged, its transaction not committed. */
export { RENEWAL_AFTER_CHARGE_FAULT };

/** Which organizations a run covers: one (the sandbox clock's advance) or all (the production scheduler). */
export interface RenewalScope {
  organizationId: string | null;
  /** The instant the work is due and stamped with. */
  at: Date;
}

export interface RenewalEngineOptions {
  orm: MikroORM;
  payments: PaymentProcessor;
  /** The `environment` label of its metrics (docs/observability.md). */
  environment: string;
  /** How many due rows one claim query returns. */
  batchSize?: number;
  /** How many subscriptions of a batch are cycled at once (each in its own transaction). */
  concurrency?: number;
  logger?: Logger;
  /** What renewal orders are taxed with (docs/tax.md#renewals); absent: no tax. */
  tax?: SaleTax | null;
}

type Kind = RenewalKind;

/** Reads the subscription under its lock if its work is still due (null: done by another worker). */
type DueRead = (em: EntityManager) => Promise<Subscription | null>;

/**
 * Notified by the triggers on billing.subscriptions and billing.orders when a write may bring due work
 * closer (Migration20261127100000_work_notifications): the production scheduler looks again.
 */
export const RENEWALS_TOPIC = 'billing.renewals';

/** A renewal that produced an order to charge next, and where its events' stamps are. */
interface Billed {
  orderId: string;
  stamp: Stamp;
}

/**
 * The recurring engine (docs/recurring.md): every subscription whose period has ended is
 * cycled (or ended, or paused), every pending renewal order whose next attempt is due is charged again,
 * every paused subscription whose `resumes_at` has come is resumed. Each subscription is handled in its
 * own short transaction that first takes its row with `FOR UPDATE SKIP LOCKED` and checks again that
 * the work is still due: two schedulers never work on one subscription at once, and one that finds the
 * work done does nothing. Exactly once per period is the database's: one `subscription_cycle` order per
 * (subscription, period start) (a unique index) and a charge key derived from (subscription, period,
 * attempt). The same code runs for the sandbox clock (`runDue`, one organization, its clock's instant)
 * and for the production scheduler (`runUntilIdle` over all organizations, the wall clock).
 */
export class RenewalEngine implements DueWorkRunner {
  readonly name = 'renewals';
  private readonly batchSize: number;
  private readonly concurrency: number;

  constructor(private readonly options: RenewalEngineOptions) {
    this.batchSize = options.batchSize ?? 100;
    this.concurrency = options.concurrency ?? 4;
  }

  private tax(): RenewalTax | null {
    return this.options.tax ? { sale: this.options.tax, logger: this.options.logger } : null;
  }

  async nextDueAt(organizationId: string, _upTo: Date): Promise<Date | null> {
    return new RenewalQueries(this.options.orm.em.fork()).nextDueAt(organizationId);
  }

  /** The earliest instant anything is due, over every organization (the production scheduler waits for it). */
  async nextDueOverall(): Promise<Date | null> {
    return new RenewalQueries(this.options.orm.em.fork()).nextDueOverall();
  }

  async runDue(work: DueWork): Promise<void> {
    await this.runUntilIdle({ organizationId: work.organizationId, at: work.at });
  }

  /** Runs everything due at `scope.at` until nothing is left (or what is left is another worker's). */
  async runUntilIdle(scope: RenewalScope): Promise<number> {
    let done = 0;
    for (const kind of ['resume', 'cycle', 'retry'] as Kind[]) {
      const failed = new Set<string>();
      for (;;) {
        const ids = await this.candidates(kind, scope, [...failed]);
        if (ids.length === 0) break;
        let progressed = 0;
        await pool(ids, this.concurrency, async id => {
          try {
            if (await this.runOne(kind, id, scope.at)) {
              progressed += 1;
              this.count(kind, 'done');
            }
          } catch (error) {
            this.count(kind, 'failed');
            // Left for the next run (a processor that could not be reached retries with the same key).
            failed.add(id);
            this.options.logger?.error({ err: error, kind, id }, 'renewal work failed');
          }
        });
        done += progressed;
        // Everything listed was locked by another worker: it is theirs.
        if (progressed === 0 && ids.every(id => !failed.has(id))) break;
      }
    }
    return done;
  }

  private count(kind: Kind, outcome: 'done' | 'failed'): void {
    if (metricsOn()) renewals.inc({ environment: this.options.environment, kind, outcome });
  }

  private candidates(kind: Kind, scope: RenewalScope, exclude: string[]): Promise<string[]> {
    return new RenewalQueries(this.options.orm.em.fork()).dueIds(kind, scope, exclude, this.batchSize);
  }

  private async runOne(kind: Kind, id: string, at: Date): Promise<boolean> {
    if (kind === 'retry') return this.options.orm.em.fork().transactional(em => this.retry(em, id, new Stamp(at)));
    const billed = await this.options.orm.em.fork().transactional(async em => {
      // The subscription's lock (waiting for a request's write in flight), then the row if it is still
      // due and no other worker holds it: one statement, FOR UPDATE SKIP LOCKED.
      const read = (em: EntityManager) =>
        kind === 'cycle'
          ? new RenewalQueries(em).lockIfPeriodEnded(id, at)
          : new RenewalQueries(em).lockIfDueToResume(id, at);
      return kind === 'cycle' ? await this.cycle(em, id, read, at) : await this.resume(em, id, read, at);
    });
    if (billed === null) return false;
    // A resume's order is committed: its first charge, stamped after the resume's own events.
    if (billed !== 'done')
      await this.options.orm.em.fork().transactional(em => this.retry(em, billed.orderId, billed.stamp, true));
    return true;
  }

  /**
   * The end of a period: cancel at period end ends it (`subscription.revoked`; `.canceled` was sent when
   * it was asked for) and bills the ended period's usage on a final order, pause at period end pauses it (no
   * order), else a new period and its order.
   */
  private async cycle(em: EntityManager, id: string, read: DueRead, at: Date): Promise<'done' | null> {
    const stamp = new Stamp(at);
    let discount: Discount | null = null;
    let renewal: RenewalEvents | null = null;
    const recordEvents: SubscriptionChangeRecorder = async (em, s, types) => {
      // A renewal's events go out with its order (renewal-first-charge.ts); an end or a pause's now.
      if (types.includes('subscription.cycled'))
        renewal = { types, payload: await subscriptionEventPayload(em, s), at: stamp.next(types.length) };
      else await recordSubscriptionEvents(em, s, types, stamp.next(types.length));
    };
    let ended = false;
    const s = await inSubscriptionFrame(em, { lock: 'wait', now: () => at, recordEvents }, id, read, async (em, s) => {
      if (s.cancelAtPeriodEnd) {
        // The ended period's usage is still billed (final order below), with the period's discount.
        discount = await discountForPeriod(em, s, s.currentPeriodStart);
        ended = true;
        return endAtPeriodEnd(s, at);
      }
      if (s.pauseAtPeriodEnd) return pauseAtEnd(s, at);
      await applyPendingUpdate(em, s, at);
      const period = nextPeriod(s);
      const renewed = renew(s, period, at);
      discount = await discountForPeriod(em, s, period.start);
      // A discount whose duration is over is cleared from the subscription at the renewal it stops at.
      if (!discount) dropEndedDiscount(s);
      return renewed;
    });
    if (!s) return null;
    // The period's order and its first charge, in this transaction (renewal-first-charge.ts).
    if (renewal) await billAndChargePeriod(em, this.options.payments, s, discount, stamp, renewal, this.tax());
    else if (ended) {
      const none: RenewalEvents = { types: [], payload: {}, at };
      await billAndChargePeriod(em, this.options.payments, s, discount, stamp, none, this.tax(), true);
    }
    return 'done';
  }

  /** A paused subscription resumes: `active`, a new period from now, billed at once (Polar's resume). */
  private async resume(em: EntityManager, id: string, read: DueRead, at: Date): Promise<Billed | null> {
    const stamp = new Stamp(at);
    const billed: { order?: Order; eventsAt?: Date } = {};
    const recordEvents: SubscriptionChangeRecorder = (em, s, types) =>
      recordSubscriptionEvents(em, s, types, billed.eventsAt ?? at);
    const s = await inSubscriptionFrame(em, { lock: 'wait', now: () => at, recordEvents }, id, read, async (em, s) => {
      // The resume's events take the stamp's first instants, before its order's own.
      billed.order = await resumeSubscription(
        em,
        s,
        stamp,
        async when => {
          billed.eventsAt = when;
        },
        this.tax(),
      );
      return { changed: true, events: ['subscription.resumed'] };
    });
    return s && billed.order ? { orderId: billed.order.id, stamp } : null;
  }

  /**
   * A payment attempt of a pending renewal order (its first, or a dunning retry), under the order's and
   * then the subscription's lock.
   */
  private async retry(em: EntityManager, orderId: string, stamp: Stamp, first = false): Promise<boolean> {
    const at = stamp.at;
    const renewals = new RenewalQueries(em);
    const order = await renewals.lockIfAttemptDue(orderId, at);
    if (!order) return false;
    // A customer's own payment of the order waits for 3-D Secure: charging now could pay it twice. The
    // retry waits until that payment settles or is abandoned (dunning.ts), then keeps its schedule.
    if (await renewals.hasWaitingPayment(order.id, at)) return false;
    const s = await renewals.lockSubscriptionOrFail(order.subscriptionId!);
    // One that waited too long is canceled at the processor first; if it was paid meanwhile, that is the payment.
    const abandonment = await giveUpAbandonedPayments(em, this.options.payments, s, order, stamp);
    if (abandonment === 'held') return false;
    if (abandonment === 'paid') return true;
    if (s.status !== SubscriptionStatus.PAST_DUE && s.status !== SubscriptionStatus.ACTIVE) {
      // Ended meanwhile (revoked by the merchant): nothing more is tried.
      order.nextPaymentAttemptAt = null;
      order.modifiedAt = at;
      await em.flush();
      return true;
    }
    // Right after the order's commit, still due at its own instant: no attempt can have been recorded yet.
    await attemptPayment(em, this.options.payments, s, order, stamp, { kind: 'automatic', firstAttempt: first });
    faultPoint(RENEWAL_AFTER_CHARGE_FAULT);
    return true;
  }
}

/** Runs `work` over `items` with at most `size` at once. */
async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  });
  await Promise.all(lanes);
}
