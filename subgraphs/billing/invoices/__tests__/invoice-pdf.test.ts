import { extractText, getDocumentProxy } from 'unpdf';
import type { InvoiceDocument } from '../invoice.document.js';
import { renderInvoicePdf } from '../invoice.pdf.js';

/**
 * The invoice PDF, read back with a PDF parser (unpdf, pdf.js): it opens, and its text shows the
 * seller, the buyer, the number, the date, the lines and the totals in the order's currency with
 * that currency's minor units.
 */
async function textOf(pdf: Buffer): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: true });
  // Intl puts a no-break space between an ISO code and the number.
  return text.replace(/\u00a0/g, ' ');
}

const base: InvoiceDocument = {
  number: 'ACME-0042',
  date: new Date('2026-11-23T15:00:00Z'),
  currency: 'usd',
  seller: {
    name: 'Acme Inc',
    address: { line1: '1 Market Street', postalCode: '94105', city: 'San Francisco', state: 'CA', country: 'US' },
    email: 'billing@acme.test',
  },
  buyer: {
    name: 'Jane Doe',
    address: { line1: '10 Rue de Rivoli', line2: 'Apt 4', postalCode: '75001', city: 'Paris', country: 'fr' },
    taxId: 'FR12345678901',
  },
  lines: [
    { label: 'Pro plan, monthly', amount: 2000n, proration: false },
    { label: 'Unused time on Starter', amount: -483n, proration: true },
  ],
  subtotal: 1517n,
  discount: 152n,
  discountLabel: 'Launch 10%',
  tax: 0n,
  total: 1365n,
};

describe('renderInvoicePdf', () => {
  it('renders a USD invoice that a PDF reader opens, with every party, line and total', async () => {
    const pdf = await renderInvoicePdf(base);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await textOf(pdf);
    for (const expected of [
      'Invoice',
      'Invoice number: ACME-0042',
      'Date: November 23, 2026',
      'Acme Inc',
      '1 Market Street',
      '94105 San Francisco CA',
      'United States',
      'billing@acme.test',
      'Jane Doe',
      '10 Rue de Rivoli',
      'Apt 4',
      '75001 Paris',
      'France',
      'Tax ID: FR12345678901',
      'Pro plan, monthly',
      '$20.00',
      'Unused time on Starter (prorated)',
      '-$4.83',
      'Subtotal',
      '$15.17',
      'Discount (Launch 10%)',
      '-$1.52',
      'Tax',
      '$0.00',
      'Total',
      '$13.65',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Amount due');
  });

  it.each([
    ['jpy', [1000n, 500n], '¥1,000', '¥1,500'],
    ['kwd', [1234n, 1n], 'KWD 1.234', 'KWD 1.235'],
    ['eur', [123456n, 0n], '€1,234.56', '€1,234.56'],
    ['krw', [5000n, 0n], 'KRW 5,000', 'KRW 5,000'], // ₩ is not in the built-in font: the code is written
  ])("%s amounts use the currency's minor units", async (currency, amounts, first, total) => {
    const lines = amounts.map((amount, i) => ({ label: `Item ${i + 1}`, amount, proration: false }));
    const sum = amounts.reduce((a, b) => a + b, 0n);
    const text = await textOf(
      await renderInvoicePdf({ ...base, currency, lines, subtotal: sum, discount: 0n, tax: 0n, total: sum }),
    );
    expect(text).toContain(first);
    expect(text).toContain(`Total ${total}`);
    expect(text).not.toContain('Discount');
  });

  it('shows the applied balance and the amount due when credit paid part of it', async () => {
    const text = await textOf(await renderInvoicePdf({ ...base, appliedBalance: -365n, due: 1000n }));
    expect(text).toContain('Applied balance -$3.65');
    expect(text).toContain('Amount due $10.00');
  });

  it('prints one line per tax rate, and the tax an inclusive price includes after the total', async () => {
    const lines = [{ label: 'Pro plan', amount: 10000n, proration: false }];
    const eur = { ...base, currency: 'eur', lines, subtotal: 10000n, discount: 0n, discountLabel: null };
    const exclusive = await textOf(
      await renderInvoicePdf({ ...eur, tax: 1900n, taxLines: [{ label: 'VAT 19 %', amount: 1900n }], total: 11900n }),
    );
    expect(exclusive).toContain('VAT 19 % €19.00');
    expect(exclusive).toContain('Total €119.00');
    const inclusive = await textOf(
      await renderInvoicePdf({
        ...eur,
        tax: 1597n,
        taxLines: [{ label: 'VAT 19 %', amount: 1597n }],
        taxInclusive: true,
        total: 10000n,
      }),
    );
    expect(inclusive).toContain('Total €100.00');
    expect(inclusive).toContain('Including VAT 19 % €15.97');
  });

  it('says the buyer accounts for the VAT on a reverse charge', async () => {
    const text = await textOf(await renderInvoicePdf({ ...base, reverseCharge: true }));
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)',
    );
    await expect(
      renderInvoicePdf({ ...base, tax: 10n, total: 1375n, taxLines: [{ label: 'VAT 19 %', amount: 9n }] }),
    ).rejects.toThrow(/tax lines add up to 9/);
  });

  it('refuses an invoice whose amounts do not add up', async () => {
    await expect(renderInvoicePdf({ ...base, total: 1366n })).rejects.toThrow(/does not add up/);
    await expect(renderInvoicePdf({ ...base, subtotal: 1518n, total: 1366n })).rejects.toThrow(/lines add up to 1517/);
  });
});
