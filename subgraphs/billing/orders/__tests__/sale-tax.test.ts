import { BuiltInTaxCalculator } from '../../tax/built-in-calculator.js';
import { SandboxVatIdVerifier } from '../../tax/sandbox-vat-id-verifier.js';
import { orderAmounts } from '../order-amounts.js';
import { notCollecting, SaleTax, type SellerTax } from '../sale-tax.js';

/**
 * How billing applies tax to an order (docs/tax.md#how-billing-applies-it), over the built-in rules and
 * the sandbox's VAT ids: the derived amounts, the tax of each line, and what happens when the buyer's
 * address cannot be taxed.
 */
const AT = new Date('2026-06-01T00:00:00Z');
const german: SellerTax = {
  profile: { organizationId: 'org', country: 'DE', taxId: null, registrations: [], stripeTaxEnabled: false },
  defaultTaxBehavior: 'location',
  legalName: 'Seller GmbH',
  legalAddress: null,
};
const sale = new SaleTax(new BuiltInTaxCalculator(), new SandboxVatIdVerifier(), async () => german);
const FR = { line1: '1 Rue', postal_code: '75001', city: 'Paris', country: 'FR' };

describe('orderAmounts', () => {
  it.each([
    // subtotal, discount, tax, behaviour, balance → net, total, due
    [10000n, 0n, 1900n, 'exclusive', 0n, 10000n, 11900n, 11900n],
    [10000n, 0n, 1597n, 'inclusive', 0n, 8403n, 10000n, 10000n],
    [10000n, 1000n, 1437n, 'inclusive', -500n, 7563n, 9000n, 8500n],
    [1450n, 0n, 0n, null, -2000n, 1450n, 1450n, 0n],
  ] as const)('%s − %s with tax %s (%s), balance %s → net %s, total %s, due %s', (s, d, t, b, a, net, total, due) => {
    expect(
      orderAmounts({ subtotalAmount: s, discountAmount: d, taxAmount: t, taxBehavior: b, appliedBalanceAmount: a }),
    ).toEqual({ net, total, due });
  });
});

describe('SaleTax.orderTax', () => {
  const warnings: string[] = [];
  const warn = (issue: string) => warnings.push(issue);
  beforeEach(() => {
    warnings.length = 0;
  });

  it('taxes each line, a proration credit negatively, with the evidence of the sale', async () => {
    const tax = await sale.orderTax(
      german,
      { address: FR, taxId: null },
      'eur',
      [
        { amount: -483n, taxBehavior: 'exclusive' },
        { amount: 1933n, taxBehavior: 'exclusive' },
      ],
      AT,
      warn,
    );
    // 483 × 20 % = 96.6 → 97; 1933 × 20 % = 386.6 → 387.
    expect(tax).toMatchObject({ taxAmount: 290n, taxBehavior: 'exclusive', itemTaxes: [-97n, 387n] });
    expect(tax.evidence).toMatchObject({ seller_country: 'DE', buyer_country: 'FR', buyer_postal_code: '75001' });
    expect(warnings).toEqual([]);
  });

  it('checks an EU VAT id at the sale date and reverse-charges a valid one', async () => {
    const tax = await sale.orderTax(
      german,
      { address: FR, taxId: ['FR11123456782', 'eu_vat'] },
      'eur',
      [{ amount: 10000n, taxBehavior: 'location' }],
      AT,
      warn,
    );
    expect(tax.taxAmount).toBe(0n);
    expect(tax.breakdown[0]?.taxability_reason).toBe('reverse_charge');
    expect(tax.evidence?.vat_id_check).toMatchObject({ result: 'valid', source: 'sandbox' });
  });

  it.each([
    ['no address', null, 'A billing address is required to compute tax.'],
    [
      'a US address without its state',
      { country: 'US', postal_code: '94105' },
      'A state is required to compute tax for this country.',
    ],
    [
      'a French address without its postal code',
      { country: 'FR' },
      'A postal code is required to compute tax for this country.',
    ],
  ])('bills no tax and warns with %s', async (_, address, issue) => {
    const tax = await sale.orderTax(
      german,
      { address, taxId: null },
      'eur',
      [{ amount: 10000n, taxBehavior: 'location' }],
      AT,
      warn,
    );
    expect(tax).toEqual({ taxAmount: 0n, taxBehavior: null, breakdown: [], evidence: null, itemTaxes: [0n] });
    expect(warnings).toEqual([issue]);
  });

  it('needs no address from a seller that collects nothing', async () => {
    const tax = await sale.orderTax(
      notCollecting('org'),
      { address: null, taxId: null },
      'usd',
      [{ amount: 1500n, taxBehavior: 'location' }],
      AT,
      warn,
    );
    expect(tax.taxAmount).toBe(0n);
    expect(tax.breakdown.map(i => i.taxability_reason)).toEqual(['not_collecting']);
    expect(warnings).toEqual([]);
  });
});
