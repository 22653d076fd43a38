import { formatMoney } from '../../../kit/money/format.js';
import {
  type InvoiceAddress,
  type InvoiceDocument,
  invoiceAmountIssues,
  REVERSE_CHARGE_MENTION,
} from './invoice.document.js';

/**
 * Renders an invoice to PDF with pdfkit. The fonts are PDF's built-in Helvetica (nothing to ship),
 * whose encoding (WinAnsi) has $, €, £ and ¥ but not every currency sign: an amount whose symbol it
 * cannot draw is written with the ISO code instead (`KRW 5,000`). Amounts use the currency's own
 * minor units (JPY 0 decimals, USD 2, KWD 3) through the money kit.
 */
export async function renderInvoicePdf(invoice: InvoiceDocument): Promise<Buffer> {
  const issues = invoiceAmountIssues(invoice);
  const title = invoice.title ?? 'Invoice';
  if (issues.length > 0) throw new Error(`${title} ${invoice.number} does not add up: ${issues.join('; ')}`);
  const locale = invoice.locale ?? 'en-US';
  const money = (amount: bigint) => printableMoney(amount, invoice.currency, locale);
  // Loaded on the first invoice, not at start-up: pdfkit and its font stack take 7 MB of heap.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `${title} ${invoice.number}`,
      Author: invoice.seller.name,
      CreationDate: invoice.date,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const amountWidth = 140;

  doc.font('Helvetica-Bold').fontSize(22).text(title, left, 56);
  doc.font('Helvetica').fontSize(10);
  doc.text(`${title} number: ${invoice.number}`);
  doc.text(`Date: ${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(invoice.date)}`);
  doc.moveDown(1.5);

  const top = doc.y;
  party(doc, 'From', invoice.seller, left, top, width / 2 - 10);
  const sellerBottom = doc.y;
  party(doc, 'Bill to', invoice.buyer, left + width / 2, top, width / 2);
  doc.y = Math.max(sellerBottom, doc.y);
  doc.moveDown(2);

  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, left, y, { width: width - amountWidth - 10 });
    const labelBottom = doc.y;
    doc.text(amount, left + width - amountWidth, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(labelBottom, doc.y) + 4;
  };
  const rule = () => {
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.5)
      .stroke();
    doc.y += 6;
  };

  row('Description', 'Amount', true);
  rule();
  for (const line of invoice.lines) row(line.proration ? `${line.label} (prorated)` : line.label, money(line.amount));
  rule();
  row('Subtotal', money(invoice.subtotal));
  if (invoice.discount !== 0n)
    row(invoice.discountLabel ? `Discount (${invoice.discountLabel})` : 'Discount', money(-invoice.discount));
  const taxLines = invoice.taxLines?.length ? invoice.taxLines : [{ label: 'Tax', amount: invoice.tax }];
  if (!invoice.taxInclusive) for (const line of taxLines) row(line.label, money(line.amount));
  row('Total', money(invoice.total), true);
  if (invoice.taxInclusive) for (const line of taxLines) row(`Including ${line.label}`, money(line.amount));
  if (invoice.appliedBalance !== undefined && invoice.appliedBalance !== 0n)
    row('Applied balance', money(invoice.appliedBalance));
  if (invoice.due !== undefined && invoice.due !== invoice.total) row('Amount due', money(invoice.due), true);
  for (const line of invoice.settlement ?? []) row(line.label, money(line.amount));
  if (invoice.reverseCharge) {
    doc.moveDown(1);
    doc.font('Helvetica').text(REVERSE_CHARGE_MENTION, left, doc.y, { width });
  }

  doc.end();
  return done;
}

function party(
  doc: PDFKit.PDFDocument,
  title: string,
  who: InvoiceDocument['seller'],
  x: number,
  y: number,
  width: number,
) {
  doc.font('Helvetica-Bold').text(title, x, y, { width });
  doc.font('Helvetica');
  for (const line of [who.name, ...addressLines(who.address), who.email, who.taxId ? `Tax ID: ${who.taxId}` : null])
    if (line) doc.text(line, x, doc.y, { width });
}

/** An address as it is written on an envelope, the country by its English name. */
export function addressLines(address: InvoiceAddress | null): string[] {
  if (!address) return [];
  const cityLine = [address.postalCode, address.city, address.state].filter(Boolean).join(' ');
  return [address.line1, address.line2, cityLine, countryName(address.country)].filter((l): l is string => !!l);
}

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Characters Helvetica's WinAnsi encoding can draw beyond Latin-1 (the € and a few punctuation marks). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function printableMoney(amount: bigint, currency: string, locale: string): string {
  // Some locales separate with a narrow no-break space (U+202F), which WinAnsi lacks; U+00A0 it has.
  const print = (t: string) => t.replace(/\u202f/g, '\u00a0');
  const text = print(formatMoney(amount, currency, { locale }));
  const drawable = [...text].every(ch => ch.charCodeAt(0) < 0x100 || WIN_ANSI_EXTRA.has(ch));
  return drawable ? text : print(formatMoney(amount, currency, { locale, currencyDisplay: 'code' }));
}
