import {
  discountAmount,
  type DiscountTerms,
  percentageOf,
  allocateProportionally,
} from '../../../kit/money/discounts.js';
import { normalizeCurrency } from '../../../kit/money/currency.js';
import { CurrencyMismatch } from '../../../kit/money/money.errors.js';
import { prorate, type Period } from '../../../kit/money/proration.js';
import type { RecurringInterval } from '../time/calendar.js';

/**
 * Plan and seat changes: what a change of price(s) or seats during a period costs, as the preview
 * `POST /v1/subscriptions/{id}/update-preview` answers and the order the `PATCH` then creates.
 * Pure: the money comes from kit/money (BigInt minor units, the one rounding rule, proration by the
 * second); nothing here is scaled by a currency's exponent, so JPY and USD go through the same code.
 */

export type ProrationBehavior = 'invoice' | 'prorate' | 'next_period';

/** One billed price of a plan: a fixed amount per period, or an amount per seat per period. */
export interface PlanPrice {
  /** What the customer reads on the order line (the product's name, usually). */
  label: string;
  type: 'fixed' | 'seat';
  /** Minor units per period (`fixed`) or per seat per period (`seat`). */
  amount: bigint;
}

/** The plan on one side of a change. */
export interface Plan {
  currency: string;
  interval: RecurringInterval;
  intervalCount: number;
  prices: readonly PlanPrice[];
  /** Seats, for seat prices (ignored by fixed ones). */
  seats?: number;
}

export interface PlanChange {
  current: Plan;
  next: Plan;
  /** The current period, [start, end). */
  period: Period;
  /** When the change is made (the organization's clock). */
  at: Date;
  behavior: ProrationBehavior;
  /** The subscription's discount now: taken off the credited (current) side of the proration. */
  discount?: DiscountTerms | null;
  /** The discount once the change applies (a body may set one): off the debited side; default `discount`. */
  discountAfterChange?: DiscountTerms | null;
  /** The discount of the period after `period.end` (see discount-duration.ts); default `discountAfterChange`. */
  nextPeriodDiscount?: DiscountTerms | null;
}

export interface PreviewItem {
  label: string;
  amount: bigint;
  proration: boolean;
}

/** The preview, in the wire's key names (amounts still BigInt: the caller turns them into numbers). */
export interface ChangePreview {
  applies_at: Date;
  currency: string;
  items: PreviewItem[];
  subtotal_amount: bigint;
  discount_amount: bigint;
  net_amount: bigint;
  tax_amount: bigint;
  total_amount: bigint;
}

/**
 * Which way a change goes, by the price per period normalised to a common length: a monthly $10 and
 * a yearly $100 compare as $10 against $100/12. Lengths are in 1/4800 day so that every interval is
 * an exact integer: 400 Gregorian years are 146,097 days and 4,800 months.
 */
export type ChangeDirection = 'upgrade' | 'downgrade' | 'same';

const LENGTH_UNITS: Record<RecurringInterval, bigint> = {
  day: 4_800n,
  week: 33_600n,
  month: 146_097n,
  year: 1_753_164n,
};

export function planAmountPerPeriod(plan: Plan): bigint {
  return lineAmounts(plan).reduce((sum, line) => sum + line.amount, 0n);
}

export function changeDirection(current: Plan, next: Plan): ChangeDirection {
  const currentLength = LENGTH_UNITS[current.interval] * BigInt(current.intervalCount);
  const nextLength = LENGTH_UNITS[next.interval] * BigInt(next.intervalCount);
  // amount_current / length_current vs amount_next / length_next, cross-multiplied: exact.
  const currentRate = planAmountPerPeriod(current) * nextLength;
  const nextRate = planAmountPerPeriod(next) * currentLength;
  return nextRate > currentRate ? 'upgrade' : nextRate < currentRate ? 'downgrade' : 'same';
}

/** The organization's choice: one behaviour for upgrades, one for downgrades. */
export interface DirectionalProration {
  upgrade: ProrationBehavior;
  downgrade: ProrationBehavior;
}

/**
 * The behaviour of one change: the request's when it names one (the portal never does), else the
 * organization's for that direction. A change that costs the same per period follows the upgrade rule.
 */
export function resolveProrationBehavior(
  requested: ProrationBehavior | null | undefined,
  organization: DirectionalProration,
  direction: ChangeDirection,
): ProrationBehavior {
  if (requested) return requested;
  return direction === 'downgrade' ? organization.downgrade : organization.upgrade;
}

interface Line {
  label: string;
  amount: bigint;
}

/** A plan's lines for one whole period: fixed amounts as they are, seat prices × seats. */
function lineAmounts(plan: Plan): Line[] {
  const seats = BigInt(plan.seats ?? 1);
  if (seats < 0n) throw new RangeError('seats must not be negative');
  return plan.prices.map(price => ({
    label: price.type === 'seat' ? `${price.label} (${seats} × seat)` : price.label,
    amount: price.type === 'seat' ? price.amount * seats : price.amount,
  }));
}

/**
 * What a discount takes off each line: a percentage per line (each rounded by the one rule), a fixed
 * amount off the plan's total split by largest remainder so the parts add up exactly.
 */
function discountPerLine(
  lines: readonly Line[],
  discount: DiscountTerms | null | undefined,
  currency: string,
): bigint[] {
  if (!discount) return lines.map(() => 0n);
  if (discount.type === 'percentage')
    return lines.map(l => (l.amount > 0n ? percentageOf(l.amount, discount.basisPoints) : 0n));
  const total = lines.reduce((sum, l) => sum + l.amount, 0n);
  return allocateProportionally(
    discountAmount(discount, total, currency),
    lines.map(l => l.amount),
  );
}

/** The lines of a full period at `plan`, with the discount shown separately (not prorations). */
function regularPeriod(plan: Plan, discount: DiscountTerms | null | undefined) {
  const lines = lineAmounts(plan);
  const off = discountPerLine(lines, discount, plan.currency);
  return {
    items: lines.map(l => ({ label: l.label, amount: l.amount, proration: false })),
    discount: off.reduce((sum, d) => sum + d, 0n),
  };
}

/**
 * The proration lines of a change at `at`: for each current line a credit of its unused time, for each
 * new line a debit of the time left, each prorated from its discounted amount and rounded on its own
 * (Polar's and Stripe's invoices; kit/money/proration.ts). Polar's documented case, $5 → $20 after one
 * day of a 30-day month: items −483 and +1933, 1450 net.
 */
function creditItems(change: PlanChange): PreviewItem[] {
  const current = lineAmounts(change.current);
  const off = discountPerLine(current, change.discount, change.current.currency);
  return current
    .map((line, i) => ({
      label: `Unused time on ${line.label}`,
      amount: -prorate(line.amount - off[i], change.period, change.at),
      proration: true,
    }))
    .filter(item => item.amount !== 0n);
}

/** The debit of each new line for what is left of `period` at `at` (all of it for a period starting at `at`). */
function debitItems(change: PlanChange, period: Period): PreviewItem[] {
  const next = lineAmounts(change.next);
  const off = discountPerLine(next, afterChange(change), change.next.currency);
  return next
    .map((line, i) => ({
      label: `Remaining time on ${line.label}`,
      amount: prorate(line.amount - off[i], period, change.at),
      proration: true,
    }))
    .filter(item => item.amount !== 0n);
}

const afterChange = (change: PlanChange) =>
  change.discountAfterChange === undefined ? change.discount : change.discountAfterChange;

/** Same prices, other seat count: Polar bills one line, the prorated difference. */
function isSeatChangeOnly(change: PlanChange): boolean {
  const { current, next } = change;
  return (
    (current.seats ?? 1) !== (next.seats ?? 1) &&
    current.prices.length === next.prices.length &&
    current.prices.every(
      (price, i) =>
        price.label === next.prices[i].label &&
        price.type === next.prices[i].type &&
        price.amount === next.prices[i].amount,
    )
  );
}

/**
 * A seat change is one line: the prorated difference between the discounted amounts before and after
 * (the discount taken off each side, never off the difference, so a fixed discount is not counted
 * twice). Polar truncates this line (`int(Decimal)`); we round it by the one rule.
 */
function seatDeltaItems(change: PlanChange): PreviewItem[] {
  const before = lineAmounts(change.current);
  const beforeOff = discountPerLine(before, change.discount, change.current.currency);
  const after = lineAmounts(change.next);
  const afterOff = discountPerLine(after, afterChange(change), change.next.currency);
  const items: PreviewItem[] = [];
  change.current.prices.forEach((price, i) => {
    if (price.type !== 'seat') return;
    const delta = after[i].amount - afterOff[i] - (before[i].amount - beforeOff[i]);
    const amount = prorate(delta, change.period, change.at);
    if (amount !== 0n)
      items.push({
        label: `${price.label} (${change.current.seats ?? 1} → ${change.next.seats ?? 1} seats)`,
        amount,
        proration: true,
      });
  });
  return items;
}

/** The proration lines of a change within the current period: one seat line, or credits then debits. */
function prorationItems(change: PlanChange): PreviewItem[] {
  if (isSeatChangeOnly(change)) return seatDeltaItems(change);
  return [...creditItems(change), ...debitItems(change, change.period)];
}

function sameInterval(a: Plan, b: Plan): boolean {
  return a.interval === b.interval && a.intervalCount === b.intervalCount;
}

/**
 * The preview of a change, per behaviour:
 *
 * - `invoice`: applies at `at`; the order made now holds the proration lines (credit of the unused
 *   time, debit of the time left). Its subtotal may be negative: see `settle`.
 * - `prorate`: applies at `at`; nothing is charged now and the proration lines go on the next renewal
 *   order, so the preview is that order: the proration lines plus the new plan's next period.
 * - `next_period`: nothing changes before `period.end`; the preview is the renewal order at the new plan.
 *
 * A change of billing interval cannot carry a proration to a renewal on another calendar, so it is
 * billed now (Polar promotes `prorate` to `invoice` then): the unused time is credited and a new period
 * at the new plan starts at `at` (the new anchor), debited in full as a proration line, as Polar's
 * billing entries do. `next_period` keeps its meaning. A change of seats alone is one proration line,
 * the prorated difference (Polar's quantity entry).
 *
 * Discounts: proration lines are computed from discounted amounts (so `discount_amount` is 0 for
 * them): credits with the discount the subscription has, debits with the one it has after the change.
 * Regular lines show their discount in `discount_amount`. Tax is not computed here (0).
 */
export function previewChange(change: PlanChange): ChangePreview {
  const currency = normalizeCurrency(change.current.currency);
  if (normalizeCurrency(change.next.currency) !== currency) throw new CurrencyMismatch(currency, change.next.currency);
  const nextDiscount = change.nextPeriodDiscount === undefined ? afterChange(change) : change.nextPeriodDiscount;

  if (change.behavior === 'next_period') {
    const renewal = regularPeriod(change.next, nextDiscount);
    return totals(change.period.end, currency, renewal.items, renewal.discount);
  }

  if (!sameInterval(change.current, change.next)) {
    // Credit what is left of the current plan; debit a whole new period that starts now (its end is
    // irrelevant: all of it remains at its start).
    const fresh = { start: change.at, end: new Date(change.at.getTime() + 1000) };
    return totals(change.at, currency, [...creditItems(change), ...debitItems(change, fresh)], 0n);
  }

  const prorations = prorationItems(change);
  if (change.behavior === 'invoice') return totals(change.at, currency, prorations, 0n);
  const renewal = regularPeriod(change.next, nextDiscount);
  return totals(change.at, currency, [...prorations, ...renewal.items], renewal.discount);
}

function totals(appliesAt: Date, currency: string, items: PreviewItem[], discount: bigint): ChangePreview {
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0n);
  const net = subtotal - discount;
  const tax = 0n;
  return {
    applies_at: appliesAt,
    currency,
    items,
    subtotal_amount: subtotal,
    discount_amount: discount,
    net_amount: net,
    tax_amount: tax,
    total_amount: net + tax,
  };
}

/**
 * How an order's total meets the customer's balance (`balance`: what we owe the customer, ≥ 0).
 * A negative total (a credit larger than the new charge) is not paid out: it becomes balance for the
 * next orders. A positive total first uses the balance (`applied_balance_amount`), the rest is due.
 */
export function settle(
  total: bigint,
  balance: bigint,
): { applied_balance_amount: bigint; due_amount: bigint; balance_after: bigint } {
  if (balance < 0n) throw new RangeError('a customer balance is never negative');
  if (total <= 0n) return { applied_balance_amount: 0n, due_amount: 0n, balance_after: balance - total };
  const applied = balance < total ? balance : total;
  return { applied_balance_amount: applied, due_amount: total - applied, balance_after: balance - applied };
}
