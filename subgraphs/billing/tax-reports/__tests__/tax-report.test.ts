import type { TaxBreakdownItem } from '../../tax/tax.contract.js';
import {
  jurisdictionsOf,
  orderShares,
  ratesOf,
  sortJurisdictions,
  summaryOf,
  type TaxedOrder,
  type TaxShare,
} from '../tax-report.js';

/** The tax reports' arithmetic, to the cent (docs/tax-reports.md). */
const item = (over: Partial<TaxBreakdownItem>): TaxBreakdownItem => ({
  rate_type: 'percentage',
  rate: 19,
  display_name: 'VAT',
  country: 'DE',
  state: null,
  subdivision: null,
  amount: 1900,
  taxability_reason: 'standard_rated',
  ...over,
});

const order = (over: Partial<TaxedOrder>): TaxedOrder => ({
  id: 'o1',
  currency: 'eur',
  netAmount: 10_000n,
  taxAmount: 1900n,
  refundedAmount: 0n,
  refundedTaxAmount: 0n,
  breakdown: [item({})],
  ...over,
});

const pick = (shares: TaxShare[]) => shares.map(s => [s.country, s.state, s.rate, s.net, s.tax]);

describe('orderShares', () => {
  it.each([
    ['a single rate', order({}), [['DE', null, 19, 10_000n, 1900n]]],
    [
      'a partial refund: what is left',
      order({ refundedAmount: 5000n, refundedTaxAmount: 950n }),
      [['DE', null, 19, 5000n, 950n]],
    ],
    [
      'a full refund: nothing',
      order({ refundedAmount: 10_000n, refundedTaxAmount: 1900n }),
      [['DE', null, 19, 0n, 0n]],
    ],
    [
      'two rates of one state, a refund split by the largest remainders',
      order({
        currency: 'usd',
        taxAmount: 888n,
        refundedAmount: 3333n,
        refundedTaxAmount: 296n,
        breakdown: [
          item({ country: 'US', state: 'NY', rate: 4, amount: 400 }),
          item({ country: 'US', state: 'NY', rate: 4.875, amount: 488 }),
        ],
      }),
      [
        ['US', 'NY', 4, 3003n, 267n],
        ['US', 'NY', 4.875, 3664n, 325n],
      ],
    ],
    [
      'a reverse charge (no tax): the whole net',
      order({
        taxAmount: 0n,
        breakdown: [item({ country: 'FR', rate: 0, amount: 0, taxability_reason: 'reverse_charge' })],
      }),
      [['FR', null, 0, 10_000n, 0n]],
    ],
    [
      'a credit (negative net and tax) keeps its sign',
      order({ netAmount: -5000n, taxAmount: -950n, breakdown: [item({ amount: -950 })] }),
      [['DE', null, 19, -5000n, -950n]],
    ],
    [
      'a state outside the US and Canada is dropped, lower case is raised',
      order({ breakdown: [item({ country: 'gb', state: 'ENG', rate: 20, amount: 1900 })] }),
      [['GB', null, 20, 10_000n, 1900n]],
    ],
    ['no breakdown', order({ breakdown: [] }), []],
    [
      'a 0 not_collecting item, with or without a country',
      order({
        taxAmount: 0n,
        breakdown: [
          item({ country: null, rate: null, amount: 0, taxability_reason: 'not_collecting' }),
          item({ country: 'US', rate: null, amount: 0, taxability_reason: 'not_collecting' }),
        ],
      }),
      [],
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(pick(orderShares(input))).toEqual(expected);
  });
});

describe('jurisdictions, rates and summary', () => {
  const shares = [
    order({ id: 'de' }),
    order({
      id: 'fr1',
      taxAmount: 2000n,
      refundedAmount: 5000n,
      refundedTaxAmount: 1000n,
      breakdown: [item({ country: 'FR', rate: 20, amount: 2000 })],
    }),
    order({
      id: 'fr2',
      taxAmount: 2000n,
      refundedAmount: 10_000n,
      refundedTaxAmount: 2000n,
      breakdown: [item({ country: 'FR', rate: 20, amount: 2000 })],
    }),
    order({
      id: 'fr3',
      taxAmount: 0n,
      breakdown: [item({ country: 'FR', rate: 0, amount: 0, taxability_reason: 'reverse_charge' })],
    }),
    order({
      id: 'ca',
      currency: 'usd',
      taxAmount: 725n,
      breakdown: [item({ country: 'US', state: 'CA', rate: 7.25, amount: 725 })],
    }),
  ].flatMap(orderShares);

  it('adds up per country, state and currency, counting each order once', () => {
    expect(sortJurisdictions(jurisdictionsOf(shares), [{ key: 'tax_amount', direction: 'desc' }])).toEqual([
      { country: 'DE', state: null, currency: 'eur', taxAmount: 1900n, orderCount: 1 },
      { country: 'FR', state: null, currency: 'eur', taxAmount: 1000n, orderCount: 3 },
      { country: 'US', state: 'CA', currency: 'usd', taxAmount: 725n, orderCount: 1 },
    ]);
    expect(
      sortJurisdictions(jurisdictionsOf(shares), [{ key: 'order_count', direction: 'asc' }]).map(j => j.country),
    ).toEqual(['DE', 'US', 'FR']);
  });

  it('adds up per rate, in a return order', () => {
    expect(ratesOf(shares)).toEqual([
      { country: 'DE', state: null, currency: 'eur', rate: 19, netAmount: 10_000n, taxAmount: 1900n, orderCount: 1 },
      { country: 'FR', state: null, currency: 'eur', rate: 0, netAmount: 10_000n, taxAmount: 0n, orderCount: 1 },
      { country: 'FR', state: null, currency: 'eur', rate: 20, netAmount: 5000n, taxAmount: 1000n, orderCount: 2 },
      { country: 'US', state: 'CA', currency: 'usd', rate: 7.25, netAmount: 10_000n, taxAmount: 725n, orderCount: 1 },
    ]);
  });

  it('sums one currency', () => {
    expect(summaryOf(shares, 'eur')).toEqual({
      currency: 'eur',
      taxAmount: 2900n,
      orderCount: 4,
      jurisdictionCount: 2,
    });
    expect(summaryOf(shares, 'usd')).toEqual({ currency: 'usd', taxAmount: 725n, orderCount: 1, jurisdictionCount: 1 });
    expect(summaryOf(shares, 'jpy')).toEqual({ currency: 'jpy', taxAmount: 0n, orderCount: 0, jurisdictionCount: 0 });
  });
});
