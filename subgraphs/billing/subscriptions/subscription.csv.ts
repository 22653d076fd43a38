import { csvField } from '../shared/csv.js';
import type { SubscriptionExportRow } from './subscription.repository.js';

/** The columns of `GET /v1/subscriptions/export`, in order. */
export const SUBSCRIPTION_CSV_COLUMNS = [
  'id',
  'status',
  'customer_id',
  'customer_email',
  'customer_external_id',
  'product_id',
  'product_name',
  'amount',
  'currency',
  'recurring_interval',
  'recurring_interval_count',
  'started_at',
  'current_period_start',
  'current_period_end',
  'cancel_at_period_end',
  'canceled_at',
  'ends_at',
  'ended_at',
  'customer_cancellation_reason',
  'discount_id',
  'created_at',
] as const;

/** A header row and one row per subscription, CRLF-terminated (RFC 4180). */
export function subscriptionsCsv(rows: readonly SubscriptionExportRow[]): string {
  const lines = [SUBSCRIPTION_CSV_COLUMNS.join(',')];
  for (const { subscription: s, customerEmail, customerExternalId, productName } of rows) {
    const values: Record<(typeof SUBSCRIPTION_CSV_COLUMNS)[number], unknown> = {
      id: s.id,
      status: s.status,
      customer_id: s.customerId,
      customer_email: customerEmail,
      customer_external_id: customerExternalId,
      product_id: s.productId,
      product_name: productName,
      amount: s.amount,
      currency: s.currency,
      recurring_interval: s.recurringInterval,
      recurring_interval_count: s.recurringIntervalCount,
      started_at: s.startedAt,
      current_period_start: s.currentPeriodStart,
      current_period_end: s.currentPeriodEnd,
      cancel_at_period_end: s.cancelAtPeriodEnd,
      canceled_at: s.canceledAt,
      ends_at: s.endsAt,
      ended_at: s.endedAt,
      customer_cancellation_reason: s.customerCancellationReason,
      discount_id: s.discountId,
      created_at: s.createdAt,
    };
    lines.push(SUBSCRIPTION_CSV_COLUMNS.map(c => csvField(values[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
