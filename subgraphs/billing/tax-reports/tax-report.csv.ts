import { csvField } from '../shared/csv.js';
import type { RateRow } from './tax-report.js';

/** The columns of `GET /v1/taxes/rates/export`, in order. */
export const TAX_RATE_CSV_COLUMNS = [
  'country',
  'state',
  'rate',
  'currency',
  'net_amount',
  'tax_amount',
  'order_count',
] as const;

/** A header row and one CRLF-terminated row per rate (RFC 4180 quoting); amounts in minor units, as the API's. */
export function taxRatesCsv(rows: readonly RateRow[]): string {
  const lines = [TAX_RATE_CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const values: Record<(typeof TAX_RATE_CSV_COLUMNS)[number], unknown> = {
      country: row.country,
      state: row.state,
      rate: row.rate,
      currency: row.currency,
      net_amount: row.netAmount,
      tax_amount: row.taxAmount,
      order_count: row.orderCount,
    };
    lines.push(TAX_RATE_CSV_COLUMNS.map(c => csvField(values[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
