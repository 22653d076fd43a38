import type { TaxBehavior } from '../tax/tax.contract.js';

/** What an order stores of its money (the rest is derived here, once). */
export interface StoredOrderAmounts {
  subtotalAmount: bigint | string | number;
  discountAmount: bigint | string | number;
  taxAmount: bigint | string | number;
  taxBehavior: TaxBehavior | null;
  appliedBalanceAmount: bigint | string | number;
}

/**
 * An order's derived amounts (docs/polar/resources.md#order, docs/tax.md#orders), as Polar's order
 * amounts compute them: `total = net + tax`; the net is `subtotal − discount`, less the tax when the
 * prices included it (an inclusive price is the total: `subtotal − discount` is what the buyer pays,
 * split into net and tax); `due = max(0, total + applied balance)`.
 */
export function orderAmounts(o: StoredOrderAmounts): { net: bigint; total: bigint; due: bigint } {
  const tax = BigInt(o.taxAmount);
  const net = BigInt(o.subtotalAmount) - BigInt(o.discountAmount) - (o.taxBehavior === 'inclusive' ? tax : 0n);
  const total = net + tax;
  const due = total + BigInt(o.appliedBalanceAmount);
  return { net, total, due: due > 0n ? due : 0n };
}

/** `net_amount` in SQL over `billing.orders` aliased `alias` (the sort by amount). */
export const orderNetSql = (alias: string) =>
  `(${alias}.subtotal_amount - ${alias}.discount_amount - case when ${alias}.tax_behavior = 'inclusive' then ${alias}.tax_amount else 0 end)`;
