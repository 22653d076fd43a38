/**
 * THE rounding rule of every money computation in this code base: divide, then round to the nearest
 * integer, halves away from zero (2.5 → 3, -2.5 → -3).
 *
 * Why this one: it is Polar's `polar_round`, used for prices, discounts and fees, and it is
 * symmetric, so a credit is exactly the negation of the same debit (JavaScript's `Math.round` sends
 * -2.5 to -2, and banker's rounding moves halves by parity). Polar rounds proration lines with
 * Python's half-even `round(Decimal)`; the two differ only when a proration lands exactly on a half
 * minor unit, where we round away from zero. Everything is BigInt: amount × seconds overflows a
 * double's exact range above ~2.8e8 minor units (docs/money.md).
 */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  if (denominator < 0n) return divideRounded(-numerator, -denominator);
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  // floor((2|n| + d) / 2d) is |n|/d rounded half up, for |n| ≥ 0 and d > 0.
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}

/** `amount × numerator / denominator`, rounded once, at the end, by the rule above. */
export function scaleRounded(amount: bigint, numerator: bigint, denominator: bigint): bigint {
  return divideRounded(amount * numerator, denominator);
}
