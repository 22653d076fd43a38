import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { parseTaxId } from '../../../kit/tax/tax-id.js';
import { isUntaxable, type SaleTax, taxAddressIssue } from '../orders/sale-tax.js';
import type { ProductPrice } from '../products/product-price.entity.js';
import type { Product } from '../products/product.entity.js';
import type { TaxBehaviorOption, TaxId } from '../tax/tax.contract.js';
import type { Checkout } from './checkout.entity.js';

/** What a checkout is priced with: the selected product and its price (checkout-amounts.ts). */
export interface PricedCheckout {
  product: Product;
  price: ProductPrice;
}

/** The checkout's tax id as `[value, format]` by its billing address country (null: none, or no country). */
export function checkoutTaxId(k: Checkout): TaxId | null {
  const country = k.customerBillingAddress?.country;
  return k.customerTaxId && country ? parseTaxId(k.customerTaxId, country, ['body', 'customer_tax_id']) : null;
}

/**
 * Polar's check of `customer_tax_id` when it or the billing address changes: the country must be
 * known (422 at `customer_billing_address`), the id valid for it (422 at `customer_tax_id`); it is kept
 * normalised. A check made for another id is dropped.
 */
export function validateCustomerTaxId(k: Checkout): void {
  if (!k.customerTaxId) {
    k.customerTaxIdCheck = null;
    return;
  }
  if (!k.customerBillingAddress?.country)
    throw new PolarRequestValidationError([
      {
        type: 'missing',
        loc: ['body', 'customer_billing_address'],
        msg: 'Country is required to validate tax ID.',
        input: null,
      },
    ]);
  const [value] = checkoutTaxId(k)!;
  k.customerTaxId = value;
  if (k.customerTaxIdCheck?.tax_id[0] !== value) k.customerTaxIdCheck = null;
}

/**
 * A checkout's tax (docs/tax.md#checkouts), computed again on every change of what it depends on, as
 * Polar's `_update_checkout_tax`: nothing to pay and nothing to save (free) is 0; a seller that
 * collects with a buyer whose address cannot be taxed yet is null (the confirm then refuses, 422 at
 * `customer_billing_address`); otherwise the calculator's answer for `amount − discount` with the
 * price's `tax_behavior`, else the organization's default. An EU VAT id is checked once (VIES, or the
 * sandbox's test ids) and the check kept on the checkout: `invalid` is 422 at `customer_tax_id`,
 * `inconclusive` is accepted and recorded.
 */
export class CheckoutTax {
  constructor(private readonly sale: SaleTax | null) {}

  /** Sets the checkout's tax; answers why it cannot be computed yet (null: computed, or none owed). */
  async apply(k: Checkout, priced: PricedCheckout, now: Date): Promise<PolarRequestValidationError | null> {
    const taxable = BigInt(k.amount) - BigInt(k.discountAmount);
    const formRequired = taxable > 0n || (!!priced.product.recurringInterval && priced.price.amountType !== 'free');
    if (!this.sale || !formRequired) return this.set(k, { taxAmount: 0n });
    const seller = await this.sale.seller(k.organizationId);
    const issue = taxAddressIssue(seller, k.customerBillingAddress);
    if (issue) {
      this.set(k, { taxAmount: null });
      return issue;
    }
    const taxId = checkoutTaxId(k);
    const vatIdCheck = seller.profile.country ? await this.vatIdCheck(k, taxId, now) : null;
    const behavior = (priced.price.taxBehavior as TaxBehaviorOption | null) ?? seller.defaultTaxBehavior;
    let computed: Awaited<ReturnType<SaleTax['calculate']>>;
    try {
      computed = await this.sale.calculate(
        seller,
        { address: k.customerBillingAddress, taxId, vatIdCheck },
        k.currency,
        [{ key: '0', amount: taxable, taxBehavior: behavior }],
        now,
      );
    } catch (error) {
      // Polar's: swallowed on an update (the buyer is still typing), refused at the confirm.
      if (!isUntaxable(error)) throw error;
      this.set(k, { taxAmount: null });
      return error;
    }
    const { calculation, evidence } = computed;
    k.taxAmount = calculation.taxAmount;
    k.taxBehavior = calculation.taxBehavior;
    k.taxBreakdown = calculation.breakdown;
    k.taxEvidence = evidence;
    return null;
  }

  private set(k: Checkout, values: { taxAmount: bigint | null }): null {
    k.taxAmount = values.taxAmount;
    k.taxBehavior = null;
    k.taxBreakdown = [];
    k.taxEvidence = null;
    return null;
  }

  private async vatIdCheck(k: Checkout, taxId: TaxId | null, now: Date) {
    if (taxId?.[1] !== 'eu_vat' || !this.sale) return null;
    if (k.customerTaxIdCheck?.tax_id[0] === taxId[0]) return k.customerTaxIdCheck.check;
    const check = await this.sale.vatIds.check(taxId, now);
    if (check.result === 'invalid')
      throw new PolarRequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'customer_tax_id'],
          msg: 'This VAT number is not registered (VIES)',
          input: taxId[0],
        },
      ]);
    k.customerTaxIdCheck = { tax_id: taxId, check };
    return check;
  }
}

/** The confirm's refusal when tax cannot be computed: the calculator's items (422 at `customer_billing_address`…). */
export function untaxableIssues(error: PolarRequestValidationError): ValidationIssue[] {
  return (error.details as ValidationIssue[] | undefined) ?? [];
}
