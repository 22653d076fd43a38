import { divideRounded } from '../../../kit/money/rounding.js';

/**
 * Splits a disputed total (tax included, as the processor reports it) into the net amount and its tax, in the
 * order's proportion, as Polar does (docs/disputes.md): the tax share is rounded half away from zero and the net
 * is the rest, so the two always add up to what the bank took.
 */
export function splitDisputedTotal(
  total: bigint,
  order: { netAmount: bigint; taxAmount: bigint },
): { amount: bigint; taxAmount: bigint } {
  const orderTotal = order.netAmount + order.taxAmount;
  if (orderTotal <= 0n || order.taxAmount <= 0n) return { amount: total, taxAmount: 0n };
  const taxAmount = divideRounded(total * order.taxAmount, orderTotal);
  return { amount: total - taxAmount, taxAmount };
}
