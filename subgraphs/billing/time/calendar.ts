import { RecurringInterval as Interval } from '../shared/enums.js';

/**
 * The billing calendar: where a subscription's periods start and end. Pure, UTC only.
 *
 * Every boundary is computed from the ANCHOR (the first period's start), never from the previous
 * boundary: boundary n = anchor + n × count × interval. That is what keeps a subscription anchored
 * on the 31st on the 31st: 31 Jan → 29 Feb → 31 Mar → 30 Apr → 31 May … (stepping from the previous
 * end, as relativedelta does from `current_period_start`, would drift to the 29th forever). Months
 * that lack the anchor's day end on their last day; a yearly anchor on 29 February bills on
 * 28 February in common years and on the 29th again in leap years. The time of day is the anchor's.
 * Days and weeks are exact multiples of 86,400 s (UTC has no daylight saving).
 */

export type RecurringInterval = 'day' | 'week' | 'month' | 'year';

export interface BillingCadence {
  interval: RecurringInterval;
  /** `recurring_interval_count`, ≥ 1. */
  count: number;
  /** The first period's start. */
  anchor: Date;
}

export interface CalendarPeriod {
  /** Index of the period: 0 starts at the anchor. */
  index: number;
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;

function checkCount(count: number): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`recurring_interval_count must be ≥ 1: ${count}`);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * `at` plus `months` calendar months, on the anchor's day or the month's last day when it has fewer
 * (relativedelta's rule, applied to the anchor each time).
 */
export function addMonthsClamped(at: Date, months: number): Date {
  const total = at.getUTCFullYear() * 12 + at.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(at.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(year, month, day, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()),
  );
}

/** The n-th boundary from the anchor (n = 0 is the anchor itself; n = 1 the end of the first period). */
export function nthPeriodEnd(cadence: BillingCadence, n: number): Date {
  checkCount(cadence.count);
  if (!Number.isInteger(n)) throw new RangeError(`period index must be an integer: ${n}`);
  const steps = n * cadence.count;
  const anchor = cadence.anchor;
  switch (cadence.interval) {
    case 'day':
      return new Date(anchor.getTime() + steps * DAY_MS);
    case 'week':
      return new Date(anchor.getTime() + steps * 7 * DAY_MS);
    case 'month':
      return addMonthsClamped(anchor, steps);
    case 'year':
      return addMonthsClamped(anchor, steps * 12);
  }
}

/** A first guess of how many periods lie between the anchor and `at` (exact for days and weeks). */
function estimateIndex(cadence: BillingCadence, at: Date): number {
  const anchor = cadence.anchor;
  switch (cadence.interval) {
    case 'day':
      return Math.floor((at.getTime() - anchor.getTime()) / (cadence.count * DAY_MS));
    case 'week':
      return Math.floor((at.getTime() - anchor.getTime()) / (cadence.count * 7 * DAY_MS));
    case 'month':
    case 'year': {
      const months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
      return Math.floor(months / (cadence.count * (cadence.interval === 'year' ? 12 : 1)));
    }
  }
}

/** The index n of the period containing `at`: nthPeriodEnd(n) ≤ at < nthPeriodEnd(n + 1). */
export function periodIndexAt(cadence: BillingCadence, at: Date): number {
  let n = estimateIndex(cadence, at);
  // The estimate is off by at most one period (month lengths, the anchor's day and time of day).
  while (nthPeriodEnd(cadence, n).getTime() > at.getTime()) n -= 1;
  while (nthPeriodEnd(cadence, n + 1).getTime() <= at.getTime()) n += 1;
  return n;
}

/** The period [start, end) that contains `at` (before the anchor: the periods before it, by the same rule). */
export function periodContaining(cadence: BillingCadence, at: Date): CalendarPeriod {
  const index = periodIndexAt(cadence, at);
  return { index, start: nthPeriodEnd(cadence, index), end: nthPeriodEnd(cadence, index + 1) };
}

/** The first boundary strictly after `at`: when a subscription whose clock reads `at` renews next. */
export function nextPeriodEndAfter(cadence: BillingCadence, at: Date): Date {
  return periodContaining(cadence, at).end;
}

/** The period that starts at the first boundary strictly after `at`. */
export function nextPeriodAfter(cadence: BillingCadence, at: Date): CalendarPeriod {
  const index = periodIndexAt(cadence, at) + 1;
  return { index, start: nthPeriodEnd(cadence, index), end: nthPeriodEnd(cadence, index + 1) };
}

/**
 * Every boundary b with from < b ≤ to, in order: the renewals a clock moved from `from` to `to` must
 * run, each at its own instant. `limit` guards against a daily plan crossed over centuries.
 */
export function boundariesCrossed(cadence: BillingCadence, from: Date, to: Date, limit = 10_000): Date[] {
  const crossed: Date[] = [];
  if (to.getTime() <= from.getTime()) return crossed;
  for (let n = periodIndexAt(cadence, from) + 1; ; n += 1) {
    const boundary = nthPeriodEnd(cadence, n);
    if (boundary.getTime() > to.getTime()) return crossed;
    if (crossed.length === limit) throw new RangeError(`more than ${limit} period boundaries crossed`);
    crossed.push(boundary);
  }
}

/**
 * `start` plus `count` intervals, in UTC; month ends clamp (Jan 31 + 1 month = Feb 28/29).
 * Steps from `start` itself, not from an anchor: for a period that starts at `start` (a new
 * subscription, a resume, a trial's end), where there is no earlier boundary to keep.
 */
export function addInterval(start: Date, interval: Interval, count: number): Date {
  const d = new Date(start.getTime());
  switch (interval) {
    case Interval.DAY:
      d.setUTCDate(d.getUTCDate() + count);
      return d;
    case Interval.WEEK:
      d.setUTCDate(d.getUTCDate() + 7 * count);
      return d;
    case Interval.MONTH:
    case Interval.YEAR: {
      const months = interval === Interval.MONTH ? count : 12 * count;
      const day = d.getUTCDate();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + months);
      const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
      d.setUTCDate(Math.min(day, lastDay));
      return d;
    }
  }
}
