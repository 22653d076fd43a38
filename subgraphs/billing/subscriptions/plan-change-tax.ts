import type { EntityManager } from '@mikro-orm/postgresql';
import { CustomerRepository } from '../customers/customer.repository.js';
import { orderAmounts } from '../orders/order-amounts.js';
import type { OrderTax, SaleTax } from '../orders/sale-tax.js';
import type { ChangePreview } from '../pricing/proration.js';
import { ProductRepository } from '../products/product.repository.js';
import type { TaxBehaviorOption } from '../tax/tax.contract.js';
import type { Subscription } from './subscription.entity.js';

/**
 * The tax of a plan change's order, the one its preview shows and the one the `PATCH` bills
 * (docs/tax.md#renewals): each line of the preview taxed with the customer's billing address and tax
 * id at `applies_at`, the subscription's (new) price's `tax_behavior`, else the organization's
 * default. The preview's discount comes off its first regular line (proration lines are already
 * discounted); a credit line gets negative tax. The preview's net, tax and total are set from it.
 * Without a tax service, or for a preview with no lines, nothing changes.
 */
export async function taxPreview(
  em: EntityManager,
  s: Subscription,
  preview: ChangePreview,
  sale: SaleTax | null | undefined,
  onUntaxable: (issue: string) => void = () => {},
): Promise<{ preview: ChangePreview; tax: OrderTax | null }> {
  if (!sale || preview.items.length === 0) return { preview, tax: null };
  const seller = await sale.seller(s.organizationId);
  const customer = await new CustomerRepository(em).findByIdOrFail(s.customerId);
  const [price] = s.priceIds.length ? await new ProductRepository(em).findPricesByIds([s.priceIds[0]]) : [];
  const behavior = (price?.taxBehavior as TaxBehaviorOption | null) ?? seller.defaultTaxBehavior;
  const regular = preview.items.findIndex(item => !item.proration);
  const discountedAt = regular >= 0 ? regular : 0;
  const lines = preview.items.map((item, index) => ({
    amount: index === discountedAt ? item.amount - preview.discount_amount : item.amount,
    taxBehavior: behavior,
  }));
  const tax = await sale.orderTax(
    seller,
    { address: customer.billingAddress, taxId: customer.taxId },
    preview.currency,
    lines,
    preview.applies_at,
    onUntaxable,
  );
  const { net, total } = orderAmounts({
    subtotalAmount: preview.subtotal_amount,
    discountAmount: preview.discount_amount,
    taxAmount: tax.taxAmount,
    taxBehavior: tax.taxBehavior,
    appliedBalanceAmount: 0n,
  });
  return { preview: { ...preview, net_amount: net, tax_amount: tax.taxAmount, total_amount: total }, tax };
}
