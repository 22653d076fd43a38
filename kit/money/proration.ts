import { scaleRounded } from './rounding.js';

/** A billing period, [start, end). */
export interface Period {
  start: Date;
  end: Date;
}

/** Whole seconds since the epoch (proration works by the second, as Stripe's and Polar's do). */
function seconds(at: Date): bigint {
  return BigInt(Math.floor(at.getTime() / 1000));
}

/**
 * The share of `period` still ahead at `at`, as an exact fraction of seconds:
 * (end − at) / (end − start), clamped to [0, 1] (a change before the period starts leaves all of it,
 * one at or after its end leaves none).
 */
export function remainingFraction(period: Period, at: Date): { numerator: bigint; denominator: bigint } {
  const start = seconds(period.start);
  const end = seconds(period.end);
  if (end <= start) throw new RangeError('A period must end after it starts');
  const now = seconds(at);
  const remaining = now <= start ? end - start : now >= end ? 0n : end - now;
  return { numerator: remaining, denominator: end - start };
}

/** `amount` (per whole period) for the part of `period` that remains at `at`, rounded by the one rule. */
export function prorate(amount: bigint, period: Period, at: Date): bigint {
  const { numerator, denominator } = remainingFraction(period, at);
  return scaleRounded(amount, numerator, denominator);
}

/** The two proration lines of a change from one price to another during a period. */
export interface ProratedChange {
  /** Unused time of the old price, returned to the customer (an order item of `-credit`). */
  credit: bigint;
  /** Remaining time at the new price (an order item of `debit`). */
  debit: bigint;
  /** What the change costs now: `debit − credit` (negative: the customer is owed money). */
  net: bigint;
}

/**
 * A change at `at` from `fromAmount` to `toAmount` (each per whole period, discounts already taken
 * off). Each line is rounded separately, so the net is the difference of two rounded lines, as on
 * Polar's and Stripe's invoices. Polar's documented case: $5 → $20 after one day of a 30-day month
 * is a credit of 483, a debit of 1933, 1450 net.
 */
export function prorateChange(fromAmount: bigint, toAmount: bigint, period: Period, at: Date): ProratedChange {
  const credit = prorate(fromAmount, period, at);
  const debit = prorate(toAmount, period, at);
  return { credit, debit, net: debit - credit };
}
