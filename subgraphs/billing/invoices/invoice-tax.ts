import type { OrderType, TaxBreakdownItemType } from '../orders/order.type.js';
import type { InvoiceDocument } from './invoice.document.js';

/** A rate as invoices print it: 19 → "19", 5.5 → "5.5". */
const rateText = (rate: number) => String(Number(rate.toFixed(4)));

/** "VAT 19 %"; a reverse charge names itself; a fixed or unknown rate prints the tax's name alone. */
export function taxLineLabel(item: TaxBreakdownItemType): string {
  if (item.taxabilityReason === 'reverse_charge') return `${item.displayName} (reverse charge)`;
  return item.rateType === 'percentage' && item.rate != null
    ? `${item.displayName} ${rateText(item.rate)} %`
    : item.displayName;
}

/**
 * An order's tax as its invoice prints it (docs/tax.md#invoices): one line per rate of its breakdown
 * (the rates that were charged, and a reverse charge), whether the prices included it, and whether
 * the reverse-charge mention applies. Without such a line, the invoice prints one "Tax" line.
 */
export function invoiceTaxOf(order: OrderType): Pick<InvoiceDocument, 'taxLines' | 'taxInclusive' | 'reverseCharge'> {
  const lines = new Map<string, bigint>();
  for (const item of order.taxBreakdown) {
    if (item.taxabilityReason !== 'standard_rated' && item.taxabilityReason !== 'reverse_charge') continue;
    const label = taxLineLabel(item);
    lines.set(label, (lines.get(label) ?? 0n) + item.amount);
  }
  const taxLines = [...lines].map(([label, amount]) => ({ label, amount }));
  const taxed = taxLines.reduce((sum, line) => sum + line.amount, 0n);
  return {
    // Lines that do not account for the whole tax would print a wrong sum: one "Tax" line instead.
    taxLines: taxed === order.taxAmount ? taxLines : [],
    taxInclusive: order.taxBehavior === 'inclusive',
    reverseCharge: order.taxBreakdown.some(item => item.taxabilityReason === 'reverse_charge'),
  };
}
