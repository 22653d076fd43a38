import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '../events/record-event.js';
import { orderEventPayload } from '../orders/order.events.js';
import type { Order } from '../orders/order.entity.js';
import { orderAmounts } from '../orders/order-amounts.js';
import type { Refund } from './refund.entity.js';
import { RefundRepository } from './refund.repository.js';

/** What an order can give back: its net (before tax) with the balance applied (Polar's refundable base). */
export function refundableTotalOf(order: Order): bigint {
  return orderAmounts(order).net + BigInt(order.appliedBalanceAmount);
}

/** What the order's refunds still pending at the processor add up to (not yet in its refunded amounts). */
export async function pendingRefundsOf(
  em: EntityManager,
  orderId: string,
): Promise<{ amount: bigint; taxAmount: bigint }> {
  const row = await new RefundRepository(em).pendingSums(orderId);
  return { amount: BigInt(row.amount), taxAmount: BigInt(row.tax_amount) };
}

/**
 * A refund's money is back with the customer: the order counts it (Polar's `Order.update_refunds`:
 * `refunded` once the net, with balance, is all given back, else `partially_refunded`) and the merchant
 * hears `order.updated` then `order.refunded`, in the caller's transaction (the outbox). Called when the
 * processor answers `succeeded` at once (refund.service.ts) and when a pending refund succeeds later
 * (the processor's event, payments/processor-events.ts). The order must be locked by the caller.
 */
export async function applySucceededRefund(em: EntityManager, order: Order, refund: Refund, now: Date): Promise<void> {
  order.refundedAmount += refund.amount;
  order.refundedTaxAmount += refund.taxAmount;
  order.status = order.refundedAmount >= refundableTotalOf(order) ? 'refunded' : 'partially_refunded';
  order.modifiedAt = now;
  await em.flush();
  const payload = await orderEventPayload(em, order);
  recordEvent(em, order.organizationId, 'order.updated', payload, new Date(now.getTime() + 1));
  recordEvent(em, order.organizationId, 'order.refunded', payload, new Date(now.getTime() + 2));
  await em.flush();
}

/**
 * A refund that had succeeded failed after all (Stripe's `refund.failed` after `succeeded`: the bank
 * returned the money): the order stops counting it, `paid` again when nothing else is refunded, and the
 * merchant hears `order.updated`. The order must be locked by the caller.
 */
export async function revertSucceededRefund(em: EntityManager, order: Order, refund: Refund, now: Date): Promise<void> {
  order.refundedAmount -= refund.amount;
  order.refundedTaxAmount -= refund.taxAmount;
  order.status = order.refundedAmount > 0n ? 'partially_refunded' : 'paid';
  order.modifiedAt = now;
  await em.flush();
  recordEvent(
    em,
    order.organizationId,
    'order.updated',
    await orderEventPayload(em, order),
    new Date(now.getTime() + 1),
  );
}
