import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../customers/customer.entity.js';
import { storedAddress } from '../customers/customer.service.js';
import { parseTaxId } from '../../../kit/tax/tax-id.js';
import type { Product } from '../products/product.entity.js';
import { Checkout } from './checkout.entity.js';
import type { CheckoutCreateInput } from './checkout.inputs.js';

/** Polar's checkout lifetime. */
export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A new open checkout of `products` as the create (or a followed checkout link) asks for it, not yet
 * priced: its price, amounts and tax are set next (checkout-amounts.ts, checkout-tax.ts). A known
 * customer's e-mail, name, billing details and tax id fill what the create leaves out, as Polar's. It
 * expires 24 hours of the organization's clock after `now`.
 */
export function newCheckout(
  em: EntityManager,
  o: {
    organizationId: string;
    products: Product[];
    selected: Product;
    customer: Customer | null;
    input: CheckoutCreateInput;
    now: Date;
  },
): Checkout {
  const { organizationId, products, selected, customer, input, now } = o;
  return em.create(Checkout, {
    organizationId,
    clientSecret: `polar_c_${randomBytes(24).toString('base64url')}`,
    status: 'open',
    productIds: products.map(p => p!.id),
    productId: selected.id,
    productPriceId: '00000000-0000-0000-0000-000000000000',
    discountId: null,
    allowDiscountCodes: input.allowDiscountCodes ?? true,
    requireBillingAddress: input.requireBillingAddress ?? false,
    seats: input.seats ?? null,
    minSeats: input.minSeats ?? null,
    maxSeats: input.maxSeats ?? null,
    currency: (input.currency ?? 'usd').toLowerCase(),
    allowTrial: input.allowTrial ?? true,
    trialInterval: input.trialInterval ?? null,
    trialIntervalCount: input.trialIntervalCount ?? null,
    customerId: customer?.id ?? null,
    externalCustomerId: input.externalCustomerId ?? null,
    isBusinessCustomer: input.isBusinessCustomer ?? false,
    customerName: input.customerName ?? customer?.name ?? null,
    customerEmail: input.customerEmail ?? customer?.email ?? null,
    customerIpAddress: input.customerIpAddress ?? null,
    // Polar's prefill from a known customer: what its renewals are taxed with is what this sale starts from.
    customerBillingName: input.customerBillingName ?? customer?.billingName ?? null,
    customerBillingAddress: input.customerBillingAddress
      ? storedAddress(input.customerBillingAddress)
      : (customer?.billingAddress ?? null),
    customerTaxId: input.customerTaxId ?? (input.customerBillingAddress ? null : storedTaxId(customer)),
    customerMetadata: (input.customerMetadata ?? {}) as Checkout['customerMetadata'],
    metadata: (input.metadata ?? {}) as Checkout['metadata'],
    customFieldData: input.customFieldData ?? {},
    subscriptionId: input.subscriptionId ?? null,
    successUrl: input.successUrl ?? null,
    returnUrl: input.returnUrl ?? null,
    embedOrigin: input.embedOrigin ?? null,
    locale: input.locale ?? null,
    expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
    createdAt: now,
  } as Checkout);
}

/**
 * The customer's tax id to prefill: only with the customer's own address (it was parsed for that
 * country), and only one the tax-id rules still accept, so a merchant naming a customer is never
 * refused for what the customer has on file.
 */
function storedTaxId(customer: Customer | null): string | null {
  const [value] = customer?.taxId ?? [];
  const country = customer?.billingAddress?.country;
  if (!value || !country) return null;
  try {
    return parseTaxId(value, country)[0];
  } catch {
    return null;
  }
}
