import { CheckoutStatusEnum } from '../shared/status-enums.js';
import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { AddressType } from '../customers/customer.type.js';
import type { Discount as DiscountEntity } from '../discounts/discount.entity.js';
import { DiscountType } from '../discounts/discount.type.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { TaxBreakdownItemType } from '../orders/order.type.js';
import {
  ProductPriceType,
  ProductType,
  priceFromRow,
  productFromRow,
  type ProductRow,
} from '../products/product.type.js';
import type { RecurringInterval } from '../shared/enums.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import { addInterval } from '../time/calendar.js';
import type { Checkout as CheckoutEntity } from './checkout.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

@ObjectType('CheckoutBillingAddressFields', SIMPLE)
export class CheckoutBillingAddressFieldsType {
  @Field() country!: string;
  @Field() state!: string;
  @Field() city!: string;
  @Field() postalCode!: string;
  @Field() line1!: string;
  @Field() line2!: string;
}

/** What shaping a checkout needs besides its row: the time (expiry, trial end) and where it lives. */
export interface CheckoutShapeContext {
  now: Date;
  publicUrl: string;
}

/** The checkout's hosted page (Polar's `url`). */
export const checkoutUrl = (publicUrl: string, clientSecret: string) =>
  `${publicUrl.replace(/\/$/, '')}/checkout/${clientSecret}`;

/**
 * A checkout session (docs/polar/resources.md#checkout), the one public shape the Core API, the client endpoints
 * and the outbox use. Derived flags follow Polar's definitions: payment is required when the total
 * is above 0; a setup (the card kept for later) when the product is recurring and its price not free;
 * the form when either. `paymentProcessor` is always `stripe`: the only value Polar's clients accept.
 */
@ObjectType('Checkout', SIMPLE)
export class CheckoutType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() paymentProcessor!: string;
  @Field(() => CheckoutStatusEnum) status!: string;
  @Field() clientSecret!: string;
  @Field() url!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field() successUrl!: string;
  @Field(() => String, { nullable: true }) returnUrl!: string | null;
  @Field(() => String, { nullable: true }) embedOrigin!: string | null;
  @Field(() => MinorUnits) amount!: bigint;
  @Field(() => Int, { nullable: true }) seats!: number | null;
  @Field(() => Int, { nullable: true }) minSeats!: number | null;
  @Field(() => Int, { nullable: true }) maxSeats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Units of a unit-based price: always null, no such prices here.' })
  units!: number | null;
  @Field(() => Int, { nullable: true, description: 'Always null: no unit-based prices here.' }) minUnits!:
    | number
    | null;
  @Field(() => Int, { nullable: true, description: 'Always null: no unit-based prices here.' }) maxUnits!:
    | number
    | null;
  @Field(() => MinorUnits) discountAmount!: bigint;
  @Field(() => MinorUnits) netAmount!: bigint;
  @Field(() => MinorUnits, {
    nullable: true,
    description: 'Null until it can be computed (a seller who collects tax needs the billing address).',
  })
  taxAmount!: bigint | null;
  @Field(() => String, { nullable: true, description: 'inclusive | exclusive; null until tax is computed.' })
  taxBehavior!: string | null;
  @Field(() => [TaxBreakdownItemType], { description: 'Beyond Polar: the tax per rate (reverse charge shows here).' })
  taxBreakdown!: TaxBreakdownItemType[];
  @Field(() => MinorUnits) totalAmount!: bigint;
  @Field() currency!: string;
  @Field(() => Boolean, { nullable: true }) allowTrial!: boolean | null;
  @Field(() => String, { nullable: true }) activeTrialInterval!: string | null;
  @Field(() => Int, { nullable: true }) activeTrialIntervalCount!: number | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEnd!: Date | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => ID, { nullable: true }) productId!: string | null;
  @Field(() => ID, { nullable: true }) productPriceId!: string | null;
  @Field(() => ID, { nullable: true }) discountId!: string | null;
  @Field() allowDiscountCodes!: boolean;
  @Field() requireBillingAddress!: boolean;
  @Field() isDiscountApplicable!: boolean;
  @Field() isFreeProductPrice!: boolean;
  @Field() isPaymentRequired!: boolean;
  @Field() isPaymentSetupRequired!: boolean;
  @Field() isPaymentFormRequired!: boolean;
  @Field(() => ID, { nullable: true }) customerId!: string | null;
  @Field() isBusinessCustomer!: boolean;
  @Field(() => String, { nullable: true }) customerName!: string | null;
  @Field(() => String, { nullable: true }) customerEmail!: string | null;
  @Field(() => String, { nullable: true }) customerIpAddress!: string | null;
  @Field(() => String, { nullable: true }) customerBillingName!: string | null;
  @Field(() => AddressType, { nullable: true }) customerBillingAddress!: AddressType | null;
  @Field(() => String, { nullable: true }) customerTaxId!: string | null;
  @Field(() => String, { nullable: true }) locale!: string | null;
  @Field(() => String, { nullable: true }) paymentMethodType!: string | null;
  @Field(() => CheckoutBillingAddressFieldsType) billingAddressFields!: CheckoutBillingAddressFieldsType;
  @Field(() => String, { nullable: true }) trialInterval!: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount!: number | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => Metadata) customerMetadata!: Record<string, string | number | boolean>;
  @Field(() => Metadata) customFieldData!: Record<string, unknown>;
  @Field(() => Metadata, {
    description:
      "Polar's: `intent_status` and `intent_client_secret` while a confirmed checkout's payment waits for the customer (3-D Secure).",
  })
  paymentProcessorMetadata!: Record<string, string>;
  @Field(() => String, { nullable: true }) externalCustomerId!: string | null;
  @Field(() => ID, { nullable: true }) subscriptionId!: string | null;
  @Field(() => [ProductType]) products!: ProductType[];
  @Field(() => ProductType, { nullable: true }) product!: ProductType | null;
  @Field(() => ProductPriceType, { nullable: true }) productPrice!: ProductPriceType | null;
  @Field(() => DiscountType, { nullable: true }) discount!: DiscountType | null;
  @Field(() => String, {
    nullable: true,
    description: 'Only on the answer to confirm: a customer session for the success page (the portal).',
  })
  customerSessionToken!: string | null;
  @Field(() => OrganizationRef) organization!: OrganizationRef;

  /** THE public shape of a checkout, from a read row (checkout.read.ts). */
  static fromRow(row: ReadRow, context: CheckoutShapeContext): CheckoutType {
    const k = row.r as CheckoutEntity;
    const products = ((row.products as ProductRow[] | null) ?? []).map(productFromRow);
    const product = products.find(p => p.id === k.productId) ?? null;
    const price = row.price ? priceFromRow(row.price as Record<string, unknown>) : null;
    const amount = toBigInt(k.amount);
    const discountAmount = toBigInt(k.discountAmount);
    const taxAmount = k.taxAmount == null ? null : toBigInt(k.taxAmount);
    // Polar's checkout amounts: an inclusive price's tax is inside `amount − discount`.
    const net = amount - discountAmount - (k.taxBehavior === 'inclusive' ? (taxAmount ?? 0n) : 0n);
    const total = net + (taxAmount ?? 0n);
    const free = price?.amountType === 'free';
    const recurring = !!product?.recurringInterval;
    const trialInterval = k.trialInterval ?? product?.trialInterval ?? null;
    const trialCount = k.trialIntervalCount ?? product?.trialIntervalCount ?? null;
    const trialActive = recurring && k.allowTrial && !!trialInterval && !free && !k.subscriptionId;
    const expiresAt = toDate(k.expiresAt);
    const status = k.status === 'open' && expiresAt <= context.now ? 'expired' : k.status;
    const paymentRequired = total > 0n && !trialActive;
    const setupRequired = recurring && !free;
    const formRequired = paymentRequired || setupRequired;
    const url = checkoutUrl(context.publicUrl, k.clientSecret);
    const mode = (on: boolean) => (on ? 'required' : 'disabled');
    const northAmerican = formRequired && ['US', 'CA'].includes(k.customerBillingAddress?.country?.toUpperCase() ?? '');
    return {
      id: k.id,
      createdAt: toDate(k.createdAt),
      modifiedAt: toDate(k.modifiedAt),
      paymentProcessor: 'stripe',
      status,
      clientSecret: k.clientSecret,
      url,
      expiresAt,
      successUrl: k.successUrl ?? `${url}/confirmation`,
      returnUrl: k.returnUrl,
      embedOrigin: k.embedOrigin,
      amount,
      seats: k.seats,
      minSeats: k.minSeats,
      maxSeats: k.maxSeats,
      units: null,
      minUnits: null,
      maxUnits: null,
      discountAmount,
      netAmount: net,
      taxAmount,
      taxBehavior: k.taxBehavior ?? null,
      taxBreakdown: TaxBreakdownItemType.fromStored(k.taxBreakdown),
      totalAmount: total,
      currency: k.currency,
      allowTrial: k.allowTrial,
      activeTrialInterval: trialActive ? trialInterval : null,
      activeTrialIntervalCount: trialActive ? (trialCount ?? 1) : null,
      trialEnd: trialActive ? trialEndFrom(context.now, trialInterval!, trialCount ?? 1) : null,
      organizationId: k.organizationId,
      productId: k.productId,
      productPriceId: k.productPriceId,
      discountId: k.discountId,
      allowDiscountCodes: k.allowDiscountCodes,
      requireBillingAddress: k.requireBillingAddress,
      isDiscountApplicable: !free,
      isFreeProductPrice: free,
      isPaymentRequired: paymentRequired,
      isPaymentSetupRequired: setupRequired,
      isPaymentFormRequired: formRequired,
      customerId: k.customerId,
      isBusinessCustomer: k.isBusinessCustomer,
      customerName: k.customerName,
      customerEmail: k.customerEmail,
      customerIpAddress: k.customerIpAddress,
      customerBillingName: k.customerBillingName,
      customerBillingAddress: AddressType.fromStored(k.customerBillingAddress),
      customerTaxId: k.customerTaxId,
      locale: k.locale,
      paymentMethodType: formRequired ? 'card' : null,
      billingAddressFields: {
        country: mode(formRequired || k.requireBillingAddress),
        // Polar's: a US or Canadian address needs its state (and, to be taxed, its postal code).
        state: mode(k.requireBillingAddress || northAmerican),
        city: mode(k.requireBillingAddress),
        postalCode: mode(k.requireBillingAddress || northAmerican),
        line1: mode(k.requireBillingAddress),
        line2: k.requireBillingAddress ? 'optional' : 'disabled',
      },
      trialInterval: k.trialInterval,
      trialIntervalCount: k.trialIntervalCount,
      metadata: k.metadata ?? {},
      customerMetadata: k.customerMetadata ?? {},
      customFieldData: k.customFieldData ?? {},
      paymentProcessorMetadata: k.paymentProcessorMetadata ?? {},
      externalCustomerId: k.externalCustomerId,
      subscriptionId: k.subscriptionId,
      products,
      product,
      productPrice: price,
      discount: row.discount ? DiscountType.fromEntity(row.discount as DiscountEntity) : null,
      customerSessionToken: null,
      organization: { id: k.organizationId },
    };
  }
}

/** The end of a trial starting at `from` (the subscriptions' calendar arithmetic). */
export function trialEndFrom(from: Date, interval: string, count: number): Date {
  return addInterval(from, interval as RecurringInterval, count);
}

@ObjectType('CheckoutList', SIMPLE)
export class CheckoutList extends ListResource(CheckoutType) {}
