/**
 * Everything an invoice shows, as plain data: the order pipeline builds it from an order, the
 * organization and the billing details, and `invoice.pdf.ts` renders it. Amounts are minor units of
 * `currency`, as stored on the order.
 */
export interface InvoiceAddress {
  line1?: string | null;
  line2?: string | null;
  postalCode?: string | null;
  city?: string | null;
  state?: string | null;
  /** ISO 3166-1 alpha-2 (`US`), shown as the country's English name. */
  country: string;
}

export interface InvoiceParty {
  name: string;
  address: InvoiceAddress | null;
  email?: string | null;
  taxId?: string | null;
}

export interface InvoiceLine {
  label: string;
  amount: bigint;
  /** A proration line (a credit for unused time, or the remaining time at a new price). */
  proration: boolean;
}

export interface InvoiceTaxLine {
  label: string;
  amount: bigint;
}

/** The mention an invoice carries when the buyer accounts for the VAT (docs/tax.md#invoices). */
export const REVERSE_CHARGE_MENTION =
  'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)';

export interface InvoiceDocument {
  /** What the document is, as its heading says: `Invoice` (the default) or `Receipt`. */
  title?: 'Invoice' | 'Receipt';
  /** The order's `invoice_number` (per-organization sequence), or a receipt's `receipt_number`. */
  number: string;
  /** The order's date (when it was created). */
  date: Date;
  currency: string;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  lines: InvoiceLine[];
  subtotal: bigint;
  discount: bigint;
  /** e.g. the discount's name ("Launch 20%"). */
  discountLabel?: string | null;
  tax: bigint;
  /** One line per rate of the order's tax breakdown ("VAT 19 %"); absent or empty: one "Tax" line. */
  taxLines?: InvoiceTaxLine[];
  /** The prices included the tax: the total is `subtotal − discount`, the tax lines say what it includes. */
  taxInclusive?: boolean;
  /** A line of the breakdown is a reverse charge: the invoice says the buyer accounts for the VAT. */
  reverseCharge?: boolean;
  total: bigint;
  /** Customer balance used (negative: credit that paid part of the total), as `applied_balance_amount`. */
  appliedBalance?: bigint;
  /** What was left to pay: `max(0, total + appliedBalance)` (`due_amount`). */
  due?: bigint;
  /** Lines after the totals saying how the order was settled (a receipt's payment and refunds). */
  settlement?: InvoiceTaxLine[];
  /** Locale for dates and numbers, `en-US` by default. */
  locale?: string;
}

/**
 * The identities of an order's amounts (docs/polar/resources.md#order, docs/tax.md#orders): lines add
 * up to the subtotal, the tax lines to the tax, and `total = subtotal − discount + tax` (`subtotal −
 * discount` when the prices included the tax). An invoice that breaks them is a bug upstream; it is
 * refused rather than printed.
 */
export function invoiceAmountIssues(invoice: InvoiceDocument): string[] {
  const issues: string[] = [];
  const sum = invoice.lines.reduce((total, line) => total + line.amount, 0n);
  if (sum !== invoice.subtotal) issues.push(`lines add up to ${sum}, not the subtotal ${invoice.subtotal}`);
  const taxLines = invoice.taxLines ?? [];
  const taxSum = taxLines.reduce((total, line) => total + line.amount, 0n);
  if (taxLines.length > 0 && taxSum !== invoice.tax)
    issues.push(`tax lines add up to ${taxSum}, not the tax ${invoice.tax}`);
  const expected = invoice.subtotal - invoice.discount + (invoice.taxInclusive ? 0n : invoice.tax);
  if (expected !== invoice.total)
    issues.push(
      `subtotal − discount${invoice.taxInclusive ? '' : ' + tax'} is ${expected}, not the total ${invoice.total}`,
    );
  return issues;
}
