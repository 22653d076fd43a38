import { csvField } from '../shared/csv.js';
import type { OrderType } from './order.type.js';

/** The columns of `GET /v1/orders/export`, in order. */
export const ORDER_CSV_COLUMNS = [
  'id',
  'created_at',
  'status',
  'billing_reason',
  'invoice_number',
  'customer_id',
  'customer_email',
  'product_id',
  'product_name',
  'subscription_id',
  'currency',
  'subtotal_amount',
  'discount_amount',
  'net_amount',
  'tax_amount',
  'total_amount',
  'refunded_amount',
] as const;

/** A header row and one CRLF-terminated row per order (RFC 4180 quoting); amounts in minor units. */
export function ordersCsv(orders: readonly OrderType[]): string {
  const lines = [ORDER_CSV_COLUMNS.join(',')];
  for (const o of orders) {
    const values: Record<(typeof ORDER_CSV_COLUMNS)[number], unknown> = {
      id: o.id,
      created_at: o.createdAt,
      status: o.status,
      billing_reason: o.billingReason,
      invoice_number: o.invoiceNumber,
      customer_id: o.customerId,
      customer_email: o.customer.email,
      product_id: o.productId,
      product_name: o.product?.name,
      subscription_id: o.subscriptionId,
      currency: o.currency,
      subtotal_amount: o.subtotalAmount,
      discount_amount: o.discountAmount,
      net_amount: o.netAmount,
      tax_amount: o.taxAmount,
      total_amount: o.totalAmount,
      refunded_amount: o.refundedAmount,
    };
    lines.push(ORDER_CSV_COLUMNS.map(c => csvField(values[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
