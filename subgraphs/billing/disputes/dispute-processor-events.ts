import type { DisputeOutcomeHandler } from '../payments/processor-outcome-handlers.js';
import { splitDisputedTotal } from './dispute-amounts.js';
import { CLOSED_DISPUTE_STATUSES, Dispute } from './dispute.entity.js';
import { DisputeRepository } from './dispute.repository.js';

/**
 * The processor's dispute events (Stripe's `charge.dispute.created/updated/closed`, or the sandbox's rehearsal)
 * make and update the dispute (docs/disputes.md): the first names the payment, the order and the customer;
 * later ones move the status until it is closed (a closed dispute keeps its outcome: a late, out-of-order
 * event does not reopen it) and keep the reason and the evidence deadline current. A charge that is not one
 * of our succeeded payments is someone else's: ignored. Polar sends no webhook for disputes, so none is
 * recorded. Registered with the payments' processor events at composition (services.ts).
 */
export const disputeProcessorEvents: DisputeOutcomeHandler = {
  async settle(em, event, clocks) {
    const disputes = new DisputeRepository(em);
    let dispute = await disputes.lockByProcessorId(event.disputeId);
    if (!dispute) {
      const payment = await disputes.succeededPaymentOf(event.chargeId);
      const order = payment?.orderId ? await disputes.order(payment.orderId) : null;
      if (!payment || !order) return 'ignored';
      const now = (await clocks.clockIn(em, order.organizationId)).now();
      const { amount, taxAmount } = splitDisputedTotal(event.amount, {
        netAmount: order.subtotalAmount - order.discountAmount,
        taxAmount: order.taxAmount,
      });
      dispute = em.create(Dispute, {
        organizationId: order.organizationId,
        orderId: order.id,
        paymentId: payment.id,
        customerId: order.customerId,
        status: event.status,
        amount,
        taxAmount,
        currency: event.currency.toLowerCase(),
        processorId: event.disputeId,
        reason: event.reason,
        evidenceDueBy: event.evidenceDueBy,
        pastDue: event.pastDue,
        createdAt: now,
        modifiedAt: null,
      });
      await em.flush();
      return 'handled';
    }
    const now = (await clocks.clockIn(em, dispute.organizationId)).now();
    if (!CLOSED_DISPUTE_STATUSES.includes(dispute.status)) dispute.status = event.status;
    dispute.reason = event.reason ?? dispute.reason;
    dispute.evidenceDueBy = event.evidenceDueBy;
    dispute.pastDue = event.pastDue;
    dispute.modifiedAt = now;
    await em.flush();
    return 'handled';
  },
};
