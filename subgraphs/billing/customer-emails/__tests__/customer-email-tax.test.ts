import { renderCustomerEmail } from '../customer-email-content.js';

/**
 * An order e-mail shows the tax the order charged (docs/tax.md#invoices): a line per rate, before the
 * total for prices before tax and after it ("Including …") when the prices included it, and the
 * reverse-charge mention; the total is what was charged.
 */
const order = (fields: Record<string, unknown>) =>
  renderCustomerEmail({
    kind: 'order_confirmation',
    organizationName: 'Seller GmbH',
    links: { portal: 'https://portal.example/p' },
    payload: {
      description: 'Handbook',
      currency: 'eur',
      items: [{ label: 'Handbook', amount: 10000 }],
      discount_amount: 0,
      ...fields,
    },
  }).text;

const vat = (amount: number, reason = 'standard_rated') => ({
  rate_type: 'percentage',
  rate: 0.19,
  display_name: 'VAT 19 %',
  country: 'DE',
  state: null,
  subdivision: null,
  amount,
  taxability_reason: reason,
});

describe('order e-mails with tax', () => {
  it('lists the VAT before the total when it comes on top', () => {
    const text = order({
      tax_amount: 1900,
      total_amount: 11900,
      tax_behavior: 'exclusive',
      tax_breakdown: [vat(1900)],
    });
    expect(text).toContain('VAT 19 %: €19.00\nTotal: €119.00');
  });

  it('says what an inclusive price includes, after the total', () => {
    const text = order({
      tax_amount: 1597,
      total_amount: 10000,
      tax_behavior: 'inclusive',
      tax_breakdown: [vat(1597)],
    });
    expect(text).toContain('Total: €100.00\nIncluding VAT 19 %: €15.97');
  });

  it('carries the reverse-charge mention and no tax line when the buyer accounts for the VAT', () => {
    const text = order({
      tax_amount: 0,
      total_amount: 10000,
      tax_behavior: 'inclusive',
      tax_breakdown: [{ ...vat(0, 'reverse_charge'), rate: 0, display_name: 'VAT reverse charge' }],
    });
    expect(text).toContain('Total: €100.00');
    expect(text).not.toContain('VAT reverse charge:');
    expect(text).toContain(
      'Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC)',
    );
  });
});
