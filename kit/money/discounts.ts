import { normalizeCurrency } from './currency.js';
import { scaleRounded } from './rounding.js';

/** 10000 basis points = 100 %. */
export const BASIS_POINTS_PER_WHOLE = 10_000n;

/** `basisPoints` of `amount`, rounded by the one rule (1000 bp of 1999 = 199.9 → 200). */
export function percentageOf(amount: bigint, basisPoints: number | bigint): bigint {
  const bp = BigInt(basisPoints);
  if (bp < 0n || bp > BASIS_POINTS_PER_WHOLE) throw new RangeError(`basis points out of range: ${bp}`);
  return scaleRounded(amount, bp, BASIS_POINTS_PER_WHOLE);
}

/** A discount as the money functions see it: a percentage, or fixed amounts per currency. */
export type DiscountTerms =
  | { type: 'percentage'; basisPoints: number }
  | { type: 'fixed'; amounts: Readonly<Record<string, bigint>> };

/**
 * What a discount takes off `amount` (minor units of `currency`): never more than the amount, nothing
 * off a free or negative amount. A fixed discount with no amount in this currency takes nothing off
 * (the checkout refuses such a discount before it gets here; this stays total).
 */
export function discountAmount(terms: DiscountTerms, amount: bigint, currency: string): bigint {
  if (amount <= 0n) return 0n;
  const off =
    terms.type === 'percentage' ? percentageOf(amount, terms.basisPoints) : fixedAmountIn(terms.amounts, currency);
  return off > amount ? amount : off;
}

/** The fixed amount of a discount in one currency (keys compared case-insensitively), or 0. */
export function fixedAmountIn(amounts: Readonly<Record<string, bigint>>, currency: string): bigint {
  const wanted = normalizeCurrency(currency);
  for (const [code, value] of Object.entries(amounts)) if (normalizeCurrency(code) === wanted) return value;
  return 0n;
}

/**
 * Splits `total` across lines in proportion to their `weights` (e.g. a fixed discount across an
 * order's lines) so the parts add up to exactly `total`: each part is the floor of its share, and
 * the units left over go one each to the largest remainders (ties to the earlier line). Works for a
 * negative total too (the parts are the negated split of |total|). Zero or negative weights get 0.
 */
export function allocateProportionally(total: bigint, weights: readonly bigint[]): bigint[] {
  if (total < 0n) return allocateProportionally(-total, weights).map(part => -part);
  const usable = weights.map(w => (w > 0n ? w : 0n));
  const sum = usable.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map(() => 0n);
  const parts = usable.map(w => (total * w) / sum);
  const remainders = usable.map((w, index) => ({ index, remainder: (total * w) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    if (usable[index] === 0n) continue;
    parts[index] += 1n;
    left -= 1n;
  }
  return parts;
}

/** A percentage applied to each line separately, each rounded by the one rule (docs/money.md). */
export function percentageOfEach(amounts: readonly bigint[], basisPoints: number): bigint[] {
  return amounts.map(amount => (amount > 0n ? percentageOf(amount, basisPoints) : 0n));
}
