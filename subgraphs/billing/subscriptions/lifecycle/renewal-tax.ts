import type { Logger } from '../../../../kit/logger.js';
import type { NewOrderItem } from '../../orders/create-order.js';
import { type OrderTax, type SaleTax, untaxed } from '../../orders/sale-tax.js';
import type { Subscription } from '../subscription.entity.js';
import type { RenewalNames } from './renewal.queries.js';

/** What the recurring engine taxes its orders with (none: no tax is computed, as before tax existed). */
export interface RenewalTax {
  sale: SaleTax;
  /** Told when a buyer's address cannot be taxed (the order then carries no tax). */
  logger?: Logger | null;
}

/**
 * The tax of a renewal order (docs/tax.md#renewals), computed at `at` with what the customer has on
 * file: their billing address and tax id (an EU VAT id checked again at that date), and the
 * subscription's price's `tax_behavior`, else the organization's default. The discount comes off the
 * period's own line only (the first; proration lines carry the discount of their own period), and a
 * proration credit is taxed negatively. A seller that collects, with a customer whose address cannot be
 * taxed, bills no tax and the renewal logs a warning, as Polar's renewals do.
 */
export async function renewalOrderTax(
  tax: RenewalTax | null | undefined,
  s: Subscription,
  names: RenewalNames,
  priced: { items: NewOrderItem[]; discountAmount: bigint },
  at: Date,
): Promise<OrderTax> {
  if (!tax) return untaxed(priced.items.length);
  const seller = await tax.sale.seller(s.organizationId);
  const behavior = names.price_tax_behavior ?? seller.defaultTaxBehavior;
  const lines = priced.items.map((item, index) => ({
    amount: index === 0 ? item.amount - priced.discountAmount : item.amount,
    taxBehavior: behavior,
  }));
  return tax.sale.orderTax(
    seller,
    { address: names.billing_address, taxId: names.tax_id },
    s.currency,
    lines,
    at,
    issue =>
      tax.logger?.warn(
        { subscriptionId: s.id, customerId: s.customerId, organizationId: s.organizationId, issue },
        'renewal order without tax: the customer billing address cannot be taxed',
      ),
  );
}
