import { isPaidOrderStatus } from './order.entity.js';

/**
 * An order's `receipt_number` (docs/receipts.md#numbers; the receipt itself is receipts/): an order has a receipt once money was taken for
 * it, so a paid order with something due (a free order, or one the balance covered, has no payment and no
 * receipt), refunded since or not. Derived, not allocated: `RCPT-` and the order's invoice number, which
 * is already unique in its organization and never changes.
 */
export function receiptNumberOf(order: {
  id: string;
  status: string;
  invoiceNumber: string | null;
  dueAmount: bigint;
}): string | null {
  if (!isPaidOrderStatus(order.status) || order.dueAmount <= 0n) return null;
  return `RCPT-${order.invoiceNumber ?? order.id}`;
}
