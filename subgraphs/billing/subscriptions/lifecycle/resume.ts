import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../../orders/order.entity.js';
import type { Subscription } from '../subscription.entity.js';
import { dropEndedDiscount, resume } from '../transitions/lifecycle.js';
import { billPeriod, discountForPeriod, type Stamp } from './renewal-billing.js';
import type { RenewalTax } from './renewal-tax.js';

/**
 * Polar's resume, shared by the engine (`resumes_at` has come) and `PATCH {"resume": true}`: the paused
 * subscription becomes `active` with a new period starting now (its anchor moves there), and that
 * period's `subscription_cycle` order is written, pending and due now; it is charged right after the
 * engine's transaction, or by the engine's next pass for a PATCH (Polar charges a resume from a job too).
 * `recordEvents` writes `subscription.updated` and `.resumed` at the stamp's next two instants, before
 * the order's own events. Inside the caller's transaction, which holds the subscription's lock.
 */
export async function resumeSubscription(
  em: EntityManager,
  s: Subscription,
  stamp: Stamp,
  recordEvents: (at: Date) => Promise<void>,
  tax?: RenewalTax | null,
): Promise<Order> {
  const at = stamp.at;
  resume(s, at);
  const discount = await discountForPeriod(em, s, at);
  // A discount whose duration ran out while paused is cleared, as at a renewal.
  if (!discount) dropEndedDiscount(s);
  await em.flush();
  await recordEvents(stamp.next(2));
  return billPeriod(em, s, discount, stamp, tax);
}
