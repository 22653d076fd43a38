import { PriceAmountType } from '../shared/enums.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import { storedAddress } from '../customers/customer.service.js';
import { Discount } from '../discounts/discount.entity.js';
import type { ProductPrice } from '../products/product-price.entity.js';
import { Product } from '../products/product.entity.js';
import { ProductRepository } from '../products/product.repository.js';
import type { Checkout } from './checkout.entity.js';
import type { CheckoutClientUpdateInput } from './checkout.inputs.js';
import {
  checkoutAmounts,
  checkSeats,
  discountApplicable,
  priceAmount,
  seatBounds,
} from '../pricing/checkout-amounts.js';
import { CheckoutRepository } from './checkout.repository.js';
import { checkCustomFieldData } from '../custom-fields/custom-field-data.js';
import { attachedFieldsOf } from '../custom-fields/product-custom-fields.js';
import { DiscountRepository } from '../discounts/discount.repository.js';
import { type PricedCheckout, validateCustomerTaxId } from './checkout-tax.js';

export const missing = (field: string): ValidationIssue => ({
  type: 'missing',
  loc: ['body', field],
  msg: 'Field required',
  input: null,
});
export const invalid = (field: string, msg: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc: ['body', field],
  msg,
  input,
});

/**
 * The buyer-side changes of an open checkout (customer details, product, seats, discount code), then
 * its price and amounts again. `discountId` is the merchant's choice (undefined: keep the current one).
 */
export async function applyClientChanges(
  em: EntityManager,
  k: Checkout,
  input: CheckoutClientUpdateInput,
  now: Date,
  discountId?: string | null,
): Promise<PricedCheckout> {
  if (input.customerName !== undefined) k.customerName = input.customerName;
  if (input.customerEmail !== undefined) k.customerEmail = input.customerEmail;
  if (input.customerBillingName !== undefined) k.customerBillingName = input.customerBillingName;
  if (input.customerBillingAddress !== undefined)
    k.customerBillingAddress = input.customerBillingAddress ? storedAddress(input.customerBillingAddress) : null;
  if (input.customerTaxId !== undefined) k.customerTaxId = input.customerTaxId;
  if (input.isBusinessCustomer != null) k.isBusinessCustomer = input.isBusinessCustomer;
  // Polar's: no longer a business purchase, no tax id (a stale one would keep a reverse charge).
  if (input.isBusinessCustomer === false) k.customerTaxId = null;
  if (
    input.customerTaxId !== undefined ||
    input.customerBillingAddress !== undefined ||
    input.isBusinessCustomer === false
  )
    validateCustomerTaxId(k);
  if (input.locale !== undefined) k.locale = input.locale;
  if (input.allowTrial === false) k.allowTrial = false;
  if (input.seats != null) k.seats = input.seats;
  if (input.productId && input.productId !== k.productId) {
    if (!k.productIds.includes(input.productId))
      throw new PolarRequestValidationError([
        invalid('product_id', 'Product is not available in this checkout.', input.productId),
      ]);
    k.productId = input.productId;
    k.productPriceId = '00000000-0000-0000-0000-000000000000';
  }
  if (input.productPriceId) {
    // Polar's deprecated way to pick the product: one of the checkout's products' live prices, and
    // that price's product (which must be `product_id` when both are named). Anything else, another
    // organization's price included, is refused rather than ignored.
    const offered = await new ProductRepository(em).pricesOf(k.productIds);
    const price = [...offered.values()].flat().find(p => p.id === input.productPriceId);
    if (!price || (input.productId && price.productId !== input.productId))
      throw new PolarRequestValidationError([
        invalid('product_price_id', 'Price is not available in this checkout.', input.productPriceId),
      ]);
    k.productId = price.productId;
    k.productPriceId = price.id;
  }
  const product = await new CheckoutRepository(em).productOfOrganization(k.productId, k.organizationId);
  // Answers to the (selected) product's custom fields, merged over the ones given before (docs/custom-fields.md).
  if (input.customFieldData != null) {
    const answers = checkCustomFieldData(await attachedFieldsOf(em, k.productId), input.customFieldData, {
      required: false,
    });
    if (answers.issues.length) throw new PolarRequestValidationError(answers.issues);
    k.customFieldData = { ...k.customFieldData, ...answers.data };
  }
  let discount: string | null | undefined = discountId;
  if (input.discountCode) {
    if (!k.allowDiscountCodes)
      throw new PolarRequestValidationError([
        invalid('discount_code', 'Discount codes are not allowed on this checkout.', input.discountCode),
      ]);
    const discounts = new DiscountRepository(em);
    const found = await discounts.idByCode(k.organizationId, input.discountCode);
    const candidate = found ? await discounts.findById(found) : null;
    if (!candidate || !discountApplicable(candidate, k.productId, k.currency, now))
      throw new PolarRequestValidationError([
        invalid('discount_code', 'Discount code is invalid.', input.discountCode),
      ]);
    discount = candidate.id;
  }
  return priceCheckout(
    em,
    k,
    product,
    { amount: input.amount ?? null, discountId: discount, strict: discount !== undefined },
    now,
  );
}

/**
 * Sets the price, the amount and the discount of `k` for `product` (its tax follows: checkout-tax.ts). A discount the caller names
 * (`strict`) must apply (422 at `discount_id`); a discount kept from before is dropped when it no
 * longer applies (another product, its window closed).
 */
export async function priceCheckout(
  em: EntityManager,
  k: Checkout,
  product: Product,
  requested: { amount: bigint | null; discountId: string | null | undefined; strict: boolean },
  now: Date,
): Promise<PricedCheckout> {
  const prices = ((await new ProductRepository(em).pricesOf([product.id])).get(product.id) ?? []) as ProductPrice[];
  const live = prices.filter(p => !p.isArchived);
  // The checkout's price is the static one; a metered price is picked only when the product has nothing else
  // (it charges 0 up front, its usage comes with the renewals: docs/usage-billing.md#checkouts).
  const metered = (p: ProductPrice) => p.amountType === PriceAmountType.METERED_UNIT;
  const price =
    live.find(p => p.id === k.productPriceId) ??
    live.find(p => p.priceCurrency.toLowerCase() === k.currency && !metered(p)) ??
    live.find(p => !metered(p)) ??
    live.find(p => p.priceCurrency.toLowerCase() === k.currency) ??
    live[0];
  if (!price) throw new PolarRequestValidationError([invalid('products', 'Product has no price.', product.id)]);
  const samePrice = price.id === k.productPriceId;
  k.productPriceId = price.id;
  k.currency = price.priceCurrency.toLowerCase();
  if (price.amountType === 'seat_based') {
    const bounds = seatBounds(price, k);
    if (k.seats == null) k.seats = bounds.min;
    checkSeats(k.seats, bounds);
  }
  const amount = priceAmount(price, {
    amount: requested.amount ?? (samePrice && price.amountType === 'custom' ? BigInt(k.amount) : null),
    seats: k.seats,
  });
  let discount: Discount | null = null;
  const discountId = requested.discountId === undefined ? k.discountId : requested.discountId;
  if (discountId) {
    discount = await new DiscountRepository(em).findLiveOfOrganization(discountId, k.organizationId);
    if (!discount || !discountApplicable(discount, product.id, k.currency, now) || price.amountType === 'free') {
      if (requested.strict && requested.discountId)
        throw new PolarRequestValidationError([invalid('discount_id', 'Discount does not exist.', discountId)]);
      discount = null;
    }
  }
  const amounts = checkoutAmounts(amount, k.currency, discount);
  k.amount = amounts.amount;
  k.discountAmount = amounts.discountAmount;
  k.discountId = discount?.id ?? null;
  return { product, price };
}
