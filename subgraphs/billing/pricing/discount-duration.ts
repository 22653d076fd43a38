import { addMonthsClamped, type BillingCadence, nextPeriodEndAfter } from '../time/calendar.js';

/**
 * How long a subscription's discount lasts (docs/polar/resources.md#discount: once, forever, repeating N months),
 * as Polar decides it at each renewal. `firstAppliedAt` is the start of the first *billed* period the
 * discount applied to (after a trial, the period the trial ended into: a trial does not use up a
 * `once` discount or a month of a repeating one).
 */
export type DiscountDuration =
  | { duration: 'once' }
  | { duration: 'forever' }
  | { duration: 'repeating'; durationInMonths: number };

/**
 * Whether the discount applies to the period starting at `periodStart`:
 * - once: only the period it was first applied to;
 * - forever: every period;
 * - repeating N: periods starting no later than N − 1 months after the first (the first month counts
 *   as the first repetition), so N monthly periods, or one yearly period for any N ≤ 12.
 */
export function discountAppliesTo(discount: DiscountDuration, firstAppliedAt: Date, periodStart: Date): boolean {
  switch (discount.duration) {
    case 'once':
      return periodStart.getTime() <= firstAppliedAt.getTime();
    case 'forever':
      return true;
    case 'repeating': {
      if (!Number.isInteger(discount.durationInMonths) || discount.durationInMonths < 1)
        throw new RangeError(`duration_in_months must be ≥ 1: ${discount.durationInMonths}`);
      const lastStart = addMonthsClamped(firstAppliedAt, discount.durationInMonths - 1);
      return periodStart.getTime() <= lastStart.getTime();
    }
  }
}

/**
 * The renewal at which the discount stops applying and is cleared from the subscription (`discount_id`
 * becomes null then), or null for a discount that never ends. `cadence` is the subscription's calendar.
 */
export function discountClearedAt(
  discount: DiscountDuration,
  firstAppliedAt: Date,
  cadence: BillingCadence,
): Date | null {
  switch (discount.duration) {
    case 'forever':
      return null;
    case 'once':
      return nextPeriodEndAfter(cadence, firstAppliedAt);
    case 'repeating': {
      // The first period start after the last one the discount still covers.
      const lastStart = addMonthsClamped(firstAppliedAt, discount.durationInMonths - 1);
      return nextPeriodEndAfter(cadence, lastStart);
    }
  }
}
