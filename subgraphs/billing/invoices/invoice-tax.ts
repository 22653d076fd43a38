import type { OrderType } from '../orders/order.type.js';
import type { InvoiceDocument } from './invoice.document.js';

/** A breakdown item as the wire and the database hold it (Polar's TaxBreakdownItem). */
export interface TaxLineSource {
  display_name: string;
  rate_type: string;
  rate: number | null;
  taxability_reason: string;
}

/**
 * How a rate of the tax is named wherever amounts are shown (invoices, e-mails, the checkout page):
 * its display name ("VAT 19 %"), with the rate added when the name does not say it ("Sales tax" →
 * "Sales tax 7.25 %"; a breakdown's rate is a fraction, 0.0725, as Polar's).
 */
export function taxLineLabel(item: TaxLineSource): string {
  const rate = item.rate_type === 'percentage' && item.rate != null ? Number((item.rate * 100).toFixed(4)) : null;
  return rate === null || item.display_name.includes('%') ? item.display_name : `${item.display_name} ${rate} %`;
}

/** The lines a tax is shown as: one per rate charged, or null when those do not add up to `taxAmount`. */
export function taxLinesOf(
  breakdown: readonly (TaxLineSource & { amount: number | bigint })[],
  taxAmount: bigint,
): { label: string; amount: bigint }[] | null {
  const lines = new Map<string, bigint>();
  for (const item of breakdown) {
    if (item.taxability_reason !== 'standard_rated') continue;
    const label = taxLineLabel(item);
    lines.set(label, (lines.get(label) ?? 0n) + BigInt(item.amount));
  }
  const out = [...lines].map(([label, amount]) => ({ label, amount }));
  return out.reduce((sum, line) => sum + line.amount, 0n) === taxAmount ? out : null;
}

/** Whether the buyer accounts for the VAT (a reverse-charge item in the breakdown). */
export const isReverseCharged = (breakdown: readonly { taxability_reason: string }[]) =>
  breakdown.some(item => item.taxability_reason === 'reverse_charge');

/**
 * An order's tax as its invoice prints it (docs/tax.md#invoices): one line per rate charged, whether
 * the prices included it, and whether the reverse-charge mention applies. Without such lines, the
 * invoice prints one "Tax" line.
 */
export function invoiceTaxOf(order: OrderType): Pick<InvoiceDocument, 'taxLines' | 'taxInclusive' | 'reverseCharge'> {
  const breakdown = order.taxBreakdown.map(i => ({
    display_name: i.displayName,
    rate_type: i.rateType,
    rate: i.rate,
    taxability_reason: i.taxabilityReason,
    amount: i.amount,
  }));
  return {
    taxLines: taxLinesOf(breakdown, order.taxAmount) ?? [],
    taxInclusive: order.taxBehavior === 'inclusive',
    reverseCharge: isReverseCharged(breakdown),
  };
}
