import { recordRefundEvent } from './refund.events.js';
import type { RefundOutcomeHandler } from '../payments/processor-outcome-handlers.js';
import { RefundRepository } from './refund.repository.js';
import { applySucceededRefund, revertSucceededRefund } from './refund-settlement.js';

/**
 * A refund the processor answered `pending` succeeds (the order counts it, `order.updated` and
 * `order.refunded`), or fails or is canceled; a succeeded refund that fails later (it happens, rarely,
 * at the bank) is taken off the order again; either way the merchant hears `refund.updated`.
 * Registered with the payments' processor events at composition (services.ts).
 */
export const refundProcessorEvents: RefundOutcomeHandler = {
  async settle(em, event, clocks) {
    const refunds = new RefundRepository(em);
    const found = await refunds.findByProcessorId(event.refundId);
    if (!found || event.status === 'pending') return 'ignored';
    // The order first, as refund.service.ts locks it: one refund of an order at a time.
    const order = await refunds.lockOrder(found.orderId);
    const refund = await refunds.reload(found.id);
    const now = (await clocks.clockIn(em, refund.organizationId)).now();
    if (refund.status === 'pending') {
      if (event.status === 'succeeded') await applySucceededRefund(em, order, refund, now);
    } else if (refund.status === 'succeeded' && event.status !== 'succeeded') {
      // The bank sent the money back after all: the order no longer counts it.
      await revertSucceededRefund(em, order, refund, now);
    } else return 'ignored';
    refund.status = event.status;
    refund.failureReason = event.status === 'succeeded' ? null : (event.failureReason ?? event.status);
    refund.modifiedAt = now;
    await em.flush();
    recordRefundEvent(em, 'refund.updated', refund, now);
    await em.flush();
    return 'handled';
  },
};
