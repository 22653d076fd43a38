import { csvField } from '../shared/csv.js';
import type { CustomerType } from './customer.type.js';

/** The header row of `GET /v1/customers/export`: Polar's column titles, in Polar's order. */
export const CUSTOMER_CSV_COLUMNS = [
  'ID',
  'External ID',
  'Created At',
  'Email',
  'Name',
  'Tax ID',
  'Billing Address Line 1',
  'Billing Address Line 2',
  'Billing Address City',
  'Billing Address State',
  'Billing Address Zip',
  'Billing Address Country',
  'Metadata',
] as const;

/**
 * A header row and one CRLF-terminated row per customer (RFC 4180 quoting). Dates and metadata are
 * written as Polar's export writes them (Python's `isoformat()` and `json.dumps`), so a spreadsheet
 * built on Polar's file reads this one; `Tax ID` is the number alone (the type lives in the API).
 */
export function customersCsv(customers: readonly CustomerType[]): string {
  const lines = [CUSTOMER_CSV_COLUMNS.join(',')];
  for (const c of customers) {
    const address = c.billingAddress;
    const values = [
      c.id,
      c.externalId,
      pythonIsoformat(c.createdAt),
      c.email,
      c.name,
      c.taxId?.[0],
      address?.line1,
      address?.line2,
      address?.city,
      address?.state,
      address?.postalCode,
      address?.country,
      Object.keys(c.metadata ?? {}).length ? pythonJsonDumps(c.metadata) : null,
    ];
    lines.push(values.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Python's `datetime.isoformat()` of an aware UTC time: microseconds only when non-zero, `+00:00`. */
export function pythonIsoformat(at: Date): string {
  const [seconds, millis] = at.toISOString().slice(0, -1).split('.');
  return `${seconds}${millis === '000' ? '' : `.${millis}000`}+00:00`;
}

/** Python's `json.dumps` of a flat map: `", "` and `": "` separators, non-ASCII escaped (`ensure_ascii`). */
export function pythonJsonDumps(map: Record<string, unknown>): string {
  const ascii = (value: unknown) =>
    JSON.stringify(value).replace(/[\u007f-\uffff]/g, ch => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `{${Object.entries(map)
    .map(([key, value]) => `${ascii(key)}: ${ascii(value)}`)
    .join(', ')}}`;
}
