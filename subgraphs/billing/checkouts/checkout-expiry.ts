import type { MikroORM } from '@mikro-orm/postgresql';
import { checkoutExpiredEvents } from './checkout.events.js';
import { runWrite } from '../events/run-write.js';
import { type DueWork, inBatches, type SweepableDueWorkRunner } from '../time/due-work.js';
import { checkoutRead } from './checkout.read.js';
import { CheckoutType } from './checkout.type.js';
import { releaseDiscount } from './checkout-confirm.js';
import { CheckoutRepository } from './checkout.repository.js';

// Checkouts expired per transaction: a backlog (a long outage, a sandbox clock moved by a year) is
// worked off in bounded transactions.
const BATCH = 200;

/**
 * Checkout expiry as due work (time/due-work.ts): an open checkout whose `expires_at` has come
 * becomes `expired`, with `checkout.expired` then `checkout.updated` (Polar's order, its
 * `checkout.expired` task), stamped with the instant it is run at. The sandbox clock's advance runs it
 * at every expiry it passes; the production sweep (time/due-work-sweep.ts) runs the same code.
 * The `update … where status = 'open'` is the claim: two runs at once expire each checkout once and
 * record its events once.
 */
export class CheckoutExpiry implements SweepableDueWorkRunner {
  readonly name = 'checkout-expiry';
  /** Notified by the trigger on billing.checkouts when an open checkout is written (Migration20261127100000_work_notifications). */
  readonly topic = 'billing.checkouts';

  constructor(
    private readonly orm: MikroORM,
    private readonly publicUrl: string,
  ) {}

  async nextDueAt(organizationId: string, upTo: Date): Promise<Date | null> {
    const at = await new CheckoutRepository(this.orm.em.fork()).earliestOpenExpiryOf(organizationId, upTo);
    return at ? new Date(at) : null;
  }

  async nextDueOverall(): Promise<Date | null> {
    const at = await new CheckoutRepository(this.orm.em.fork()).earliestOpenExpiry();
    return at ? new Date(at) : null;
  }

  async organizationsDue(now: Date, limit: number): Promise<string[]> {
    return new CheckoutRepository(this.orm.em.fork()).organizationsWithExpiredOpen(now, limit);
  }

  async runDue(work: DueWork): Promise<void> {
    // On the write path's frame: the claimed rows and their events commit together. The claim is the
    // batch's locking load (no principal: due work acts for the organization it was given).
    await inBatches(BATCH, limit =>
      runWrite(this.orm.em, async em => {
        const ids = await new CheckoutRepository(em).expireOpen(work.organizationId, work.at, limit);
        if (!ids.length) return { result: 0 };
        // A discount redemption reserved by a confirm that never went through is free again.
        await releaseDiscount(em, ids);
        const rows = await checkoutRead.byIdsIn(em, { organizationIds: [work.organizationId], customerId: null }, ids);
        const events = rows.flatMap(row =>
          checkoutExpiredEvents(
            work.organizationId,
            CheckoutType.fromRow(row, { now: work.at, publicUrl: this.publicUrl }),
            work.at,
          ),
        );
        return { result: ids.length, events };
      }),
    );
  }
}
