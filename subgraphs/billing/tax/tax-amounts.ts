import { scaleRounded } from '../../../kit/money/rounding.js';
import type { TaxBehavior } from './tax.contract.js';

/** One line's split: `net + tax = total`, in minor units. */
export interface LineAmounts {
  net: bigint;
  tax: bigint;
  total: bigint;
}

const WHOLE = 10_000n;

/**
 * The tax of one line at a rate in basis points, rounded once per line (as Polar does) by the one
 * rounding rule of kit/money.
 *
 * - exclusive: the amount is the net; tax = amount × rate, total = amount + tax.
 * - inclusive: the amount is the total; net = amount ÷ (1 + rate) rounded, tax = amount − net, so
 *   net + tax is the price exactly and no minor unit is created or lost.
 *
 * NOTE: a negative amount (a proration credit) is computed on its magnitude and negated, so a credit
 * is exactly the mirror of the same debit.
 */
export function taxLine(amount: bigint, basisPoints: number, behavior: TaxBehavior): LineAmounts {
  if (!Number.isInteger(basisPoints) || basisPoints < 0) throw new RangeError(`Bad tax rate: ${basisPoints} bp`);
  if (amount < 0n) {
    const credit = taxLine(-amount, basisPoints, behavior);
    return { net: -credit.net, tax: -credit.tax, total: -credit.total };
  }
  const rate = BigInt(basisPoints);
  if (behavior === 'exclusive') {
    const tax = scaleRounded(amount, rate, WHOLE);
    return { net: amount, tax, total: amount + tax };
  }
  const net = scaleRounded(amount, WHOLE, WHOLE + rate);
  return { net, tax: amount - net, total: amount };
}

/** A line that bears no tax: its amount is both net and total. */
export function untaxedLine(amount: bigint): LineAmounts {
  return { net: amount, tax: 0n, total: amount };
}
