import type { InvoiceDocument, InvoiceParty } from '../invoices/invoice.document.js';
import { invoiceDocument } from '../invoices/invoice.service.js';
import type { OrderType } from '../orders/order.type.js';

/**
 * The order as a receipt (docs/receipts.md): the invoice's lines and totals, numbered by its
 * `receipt_number`, dated when it was paid, and closed by what settled it: the amount paid and, when
 * there were refunds, the amount given back (tax included).
 */
export function receiptDocument(
  order: OrderType & { receiptNumber: string },
  seller: InvoiceParty,
  paidAt: Date,
  paymentLabel: string,
): InvoiceDocument {
  const refunded = order.refundedAmount + order.refundedTaxAmount;
  return {
    ...invoiceDocument(order, seller, order.customer.taxId?.[0] ?? null),
    title: 'Receipt',
    number: order.receiptNumber,
    date: paidAt,
    settlement: [
      { label: `Amount paid (${paymentLabel})`, amount: order.dueAmount },
      ...(refunded > 0n ? [{ label: 'Refunded', amount: -refunded }] : []),
    ],
  };
}
