import { hasSubdivisions } from '../../../kit/countries.js';
import { allocateProportionally } from '../../../kit/money/discounts.js';
import type { TaxBreakdownItem } from '../tax/tax.contract.js';

/**
 * The tax reports' arithmetic (docs/tax-reports.md), pure over the orders' stored tax: each order's
 * breakdown becomes its shares (what is left of its net and tax after refunds, split across its items),
 * and the shares add up to jurisdictions, a summary and the per-rate rows of a One-Stop-Shop return.
 */

/** What a report reads of a paid order (tax-report.read.ts). Amounts in minor units of `currency`. */
export interface TaxedOrder {
  id: string;
  currency: string;
  /** `subtotal − discount`: the taxable amount. */
  netAmount: bigint;
  taxAmount: bigint;
  /** The refunds' amounts, net of tax, and the tax they gave back. */
  refundedAmount: bigint;
  refundedTaxAmount: bigint;
  breakdown: TaxBreakdownItem[];
}

/** One breakdown item of one order, after refunds. */
export interface TaxShare {
  orderId: string;
  country: string;
  /** US and Canadian subdivision; null elsewhere (those countries are reported whole). */
  state: string | null;
  /** The item's rate in percent (19 for 19 %), or null when none applied. */
  rate: number | null;
  currency: string;
  net: bigint;
  tax: bigint;
}

/**
 * An item makes a jurisdiction when it names a country, unless it only says the seller collects
 * nothing there (a 0 `not_collecting` item: an organization with no country, or no registration).
 */
function counts(item: TaxBreakdownItem): item is TaxBreakdownItem & { country: string } {
  return !!item.country && !(Number(item.amount) === 0 && item.taxability_reason === 'not_collecting');
}

/**
 * The order's shares. NOTE: refunds are netted on the order, not dated: what is left of its tax
 * (`tax − refunded tax`) and of its net (`net − refunded`) is split across its counted items in
 * proportion to their tax (by size, so a credit line's negative tax weighs too), equally when none has
 * any; each split adds up to the order's exactly (allocateProportionally), and a fully refunded order
 * leaves 0 in each of its jurisdictions.
 */
export function orderShares(order: TaxedOrder): TaxShare[] {
  const items = order.breakdown.filter(counts);
  if (!items.length) return [];
  const sizes = items.map(item => abs(BigInt(Math.trunc(Number(item.amount)))));
  const weights = sizes.some(size => size > 0n) ? sizes : items.map(() => 1n);
  // A credit order (a downgrade's negative net) keeps its sign; a sale never goes below 0.
  const netLeft = order.netAmount - order.refundedAmount;
  const net = order.netAmount >= 0n && netLeft < 0n ? 0n : netLeft;
  const taxes = allocateProportionally(order.taxAmount - order.refundedTaxAmount, weights);
  const nets = allocateProportionally(net, weights);
  return items.map((item, index) => {
    const country = item.country.toUpperCase();
    return {
      orderId: order.id,
      country,
      state: hasSubdivisions(country) && item.state ? item.state.toUpperCase() : null,
      rate: item.rate ?? null,
      currency: order.currency.toLowerCase(),
      net: nets[index],
      tax: taxes[index],
    };
  });
}

/** Polar's TaxJurisdiction, before its names: one per (country, state, currency). */
export interface Jurisdiction {
  country: string;
  state: string | null;
  currency: string;
  taxAmount: bigint;
  orderCount: number;
}

export function jurisdictionsOf(shares: readonly TaxShare[]): Jurisdiction[] {
  return grouped(shares, s => [s.country, s.state, s.currency]).map(group => ({
    country: group[0].country,
    state: group[0].state,
    currency: group[0].currency,
    taxAmount: sum(group.map(s => s.tax)),
    orderCount: new Set(group.map(s => s.orderId)).size,
  }));
}

/** A row of the One-Stop-Shop return: one per (country, state, rate, currency). */
export interface RateRow extends Jurisdiction {
  rate: number | null;
  netAmount: bigint;
}

/** The rows in a return's order: country, state, currency, then rate (none first). */
export function ratesOf(shares: readonly TaxShare[]): RateRow[] {
  const rows = grouped(shares, s => [s.country, s.state, s.currency, s.rate]).map(group => ({
    country: group[0].country,
    state: group[0].state,
    currency: group[0].currency,
    rate: group[0].rate,
    netAmount: sum(group.map(s => s.net)),
    taxAmount: sum(group.map(s => s.tax)),
    orderCount: new Set(group.map(s => s.orderId)).size,
  }));
  return rows.sort(
    (a, b) => compareJurisdictions(a, b) || compareNullable(a.currency, b.currency) || compareNullable(a.rate, b.rate),
  );
}

/** Polar's TaxSummary in one currency: the net tax, the orders that made it, the jurisdictions. */
export function summaryOf(shares: readonly TaxShare[], currency: string) {
  const mine = shares.filter(s => s.currency === currency);
  return {
    currency,
    taxAmount: sum(mine.map(s => s.tax)),
    orderCount: new Set(mine.map(s => s.orderId)).size,
    jurisdictionCount: new Set(mine.map(s => `${s.country}/${s.state ?? ''}`)).size,
  };
}

export type JurisdictionSortKey = 'tax_amount' | 'order_count' | 'country';

/** Sorted by the criteria, then by country, state and currency so equal rows keep one order. */
export function sortJurisdictions(
  list: readonly Jurisdiction[],
  criteria: readonly { key: JurisdictionSortKey; direction: 'asc' | 'desc' }[],
): Jurisdiction[] {
  const byKey: Record<JurisdictionSortKey, (a: Jurisdiction, b: Jurisdiction) => number> = {
    tax_amount: (a, b) => compareNullable(a.taxAmount, b.taxAmount),
    order_count: (a, b) => a.orderCount - b.orderCount,
    country: (a, b) => compareNullable(a.country, b.country),
  };
  return [...list].sort((a, b) => {
    for (const { key, direction } of criteria) {
      const order = byKey[key](a, b);
      if (order) return direction === 'desc' ? -order : order;
    }
    return compareJurisdictions(a, b) || compareNullable(a.currency, b.currency);
  });
}

function compareJurisdictions(a: Jurisdiction, b: Jurisdiction): number {
  return compareNullable(a.country, b.country) || compareNullable(a.state, b.state);
}

/** Ascending, null first. */
function compareNullable<T extends string | number | bigint>(a: T | null, b: T | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function grouped(shares: readonly TaxShare[], key: (share: TaxShare) => unknown[]): TaxShare[][] {
  const groups = new Map<string, TaxShare[]>();
  for (const share of shares) {
    const k = JSON.stringify(key(share));
    const group = groups.get(k);
    if (group) group.push(share);
    else groups.set(k, [share]);
  }
  return [...groups.values()];
}

const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);
const abs = (value: bigint): bigint => (value < 0n ? -value : value);
