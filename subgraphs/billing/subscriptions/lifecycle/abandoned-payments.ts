import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../../orders/order.entity.js';
import { idempotencyKey } from '../../payments/idempotency-key.js';
import type { Payment } from '../../payments/payment.entity.js';
import type { CancelOutcome, PaymentProcessor } from '../../payments/payment-processor.js';
import type { Subscription } from '../subscription.entity.js';
import { markPaid, type Stamp } from './renewal-billing.js';
import { RenewalQueries } from './renewal.queries.js';

/**
 * What giving up the order's abandoned payments left: `clear` (none, or all canceled: the next attempt
 * may charge), `paid` (one had succeeded meanwhile: the order is paid, nothing more is charged) or
 * `held` (one is still in flight at the processor and cannot be canceled: no attempt now).
 */
export type Abandonment = 'clear' | 'paid' | 'held';

/**
 * Before another attempt of a renewal order, the customer's own payments that waited for 3-D Secure
 * longer than the wait allows (docs/recurring.md#one-payment-of-an-order-at-a-time) are canceled at the
 * processor, so a late authentication can no longer take the money, and marked `failed` (`abandoned`).
 * If the processor says the customer authenticated after all, that payment pays the order instead, as
 * its event would have. Runs with the order and its subscription locked, like the attempt it precedes.
 */
export async function giveUpAbandonedPayments(
  em: EntityManager,
  processor: PaymentProcessor,
  s: Subscription,
  order: Order,
  stamp: Stamp,
): Promise<Abandonment> {
  const at = stamp.at;
  for (const payment of await new RenewalQueries(em).abandonedPayments(order.id, at)) {
    const outcome: CancelOutcome = payment.processorId
      ? await processor.cancel({ idempotencyKey: idempotencyKey('cancel', payment.id), chargeId: payment.processorId })
      : { status: 'canceled', chargeId: '' };
    if (outcome.status === 'pending') return 'held';
    payment.modifiedAt = at;
    if (outcome.status === 'succeeded') {
      payment.status = 'succeeded';
      await em.flush();
      await markPaid(em, s, order, stamp);
      return 'paid';
    }
    markAbandoned(payment);
  }
  await em.flush();
  return 'clear';
}

function markAbandoned(payment: Payment): void {
  payment.status = 'failed';
  payment.declineReason = 'abandoned';
  payment.declineMessage = 'The customer did not complete the authentication in time.';
}
