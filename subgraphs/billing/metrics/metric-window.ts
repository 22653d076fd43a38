import { divideRounded } from '../../../kit/money/rounding.js';

/** Polar's TimeInterval: the width of one period. */
export const METRIC_INTERVALS = ['year', 'month', 'week', 'day', 'hour'] as const;
export type MetricInterval = (typeof METRIC_INTERVALS)[number];

/** The first day metrics can be asked for (Polar's `MIN_DATE`). */
export const METRICS_MIN_DATE = '2023-01-01';

/** Polar's limits table: the date range, in days, each interval may span (`GET /v1/metrics/limits`). */
export const METRIC_INTERVAL_LIMITS: Readonly<Record<MetricInterval, { minDays: number; maxDays: number }>> = {
  hour: { minDays: 0, maxDays: 7 },
  day: { minDays: 0, maxDays: 366 },
  week: { minDays: 14, maxDays: 7 * 53 },
  month: { minDays: 60, maxDays: 365 * 4 },
  year: { minDays: 366, maxDays: 365 * 10 },
};

const DAY_MS = 86_400_000;

/** Days from `start` to `end` (ISO dates), as Polar's `toordinal` difference. */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS);
}

/**
 * Polar's `is_under_limits`: the start is not after the end and the range is at most the interval's `maxDays`
 * (the `minDays` are advice for clients; Polar does not enforce them).
 */
export function isUnderLimits(start: string, end: string, interval: MetricInterval): boolean {
  const days = daysBetween(start, end);
  return days >= 0 && days <= METRIC_INTERVAL_LIMITS[interval].maxDays;
}

/**
 * The periods of a request, as wall-clock times of its time zone (`YYYY-MM-DD HH:MM:SS[.ffffff]`): the series
 * runs from the start date, moved back to the start of its week (Monday), month or year, to the end date's last
 * microsecond; the bounds are the dates as asked (Polar's original bounds, which limit what is counted).
 */
export interface MetricWindow {
  interval: MetricInterval;
  timezone: string;
  seriesStart: string;
  seriesEnd: string;
  boundStart: string;
  boundEnd: string;
}

export function metricWindow(start: string, end: string, interval: MetricInterval, timezone: string): MetricWindow {
  const first = new Date(`${start}T00:00:00Z`);
  if (interval === 'week') first.setUTCDate(first.getUTCDate() - ((first.getUTCDay() + 6) % 7));
  if (interval === 'month' || interval === 'year') first.setUTCDate(1);
  if (interval === 'year') first.setUTCMonth(0);
  const seriesStart = `${first.toISOString().slice(0, 10)} 00:00:00`;
  const boundEnd = `${end} 23:59:59.999999`;
  return { interval, timezone, seriesStart, seriesEnd: boundEnd, boundStart: `${start} 00:00:00`, boundEnd };
}

/**
 * A period's timestamp as Polar writes it: the wall-clock time of the request's time zone with that zone's
 * offset at that instant (`2026-03-01T00:00:00+01:00`; `Z` where the offset is zero).
 */
export function periodTimestamp(localWallClock: string, instant: Date): string {
  const local = localWallClock.replace(' ', 'T').slice(0, 19);
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - instant.getTime()) / 60_000);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const magnitude = Math.abs(offsetMinutes);
  const hh = String(Math.floor(magnitude / 60)).padStart(2, '0');
  const mm = String(magnitude % 60).padStart(2, '0');
  return `${local}${sign}${hh}:${mm}`;
}

/** Whether the runtime (and so PostgreSQL, which reads the same IANA database) knows the time zone. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A recurring amount normalised to one month, per billing interval: `amount × numerator ÷ (denominator × count)`,
 * Polar's factors (a year is 12 months, a week 52/12 of one, a day 365/12). The SQL of the subscriptions family
 * is generated from this same table (`monthlyAmountSql`).
 */
export const MONTHLY_FACTORS: Readonly<Record<'year' | 'month' | 'week' | 'day', [bigint, bigint]>> = {
  year: [1n, 12n],
  month: [1n, 1n],
  week: [52n, 12n],
  day: [365n, 12n],
};

/** The monthly amount of `amount` billed every `count` `interval`s, rounded by the one rule (kit/money). */
export function monthlyAmount(amount: bigint, interval: keyof typeof MONTHLY_FACTORS, count: number): bigint {
  const [numerator, denominator] = MONTHLY_FACTORS[interval];
  return divideRounded(amount * numerator, denominator * BigInt(count));
}

/**
 * The SQL twin of `monthlyAmount` over a subscription's columns: PostgreSQL's `round(numeric)` rounds halves away
 * from zero, the one rule.
 */
export function monthlyAmountSql(amount: string, interval: string, count: string): string {
  const cases = Object.entries(MONTHLY_FACTORS)
    .map(([name, [n, d]]) => `when '${name}' then round((${amount})::numeric * ${n} / (${d} * ${count}))`)
    .join(' ');
  return `(case ${interval} ${cases} end)::bigint`;
}
