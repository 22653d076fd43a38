import { OrderStatusEnum, SubscriptionStatusEnum } from '../shared/status-enums.js';
import { receiptNumberOf } from './receipt-number.js';
import { Directive, Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer as CustomerEntity } from '../customers/customer.entity.js';
import { AddressType, CustomerType } from '../customers/customer.type.js';
import type { Discount as DiscountEntity } from '../discounts/discount.entity.js';
import { DiscountType } from '../discounts/discount.type.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import {
  ProductPriceType,
  ProductType,
  priceFromRow,
  productFromRow,
  type ProductRow,
} from '../products/product.type.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { Subscription as SubscriptionEntity } from '../subscriptions/subscription.entity.js';
import type { TaxBreakdownItem } from '../tax/tax.contract.js';
import type { OrderItem } from './order-item.entity.js';
import { isPaidOrderStatus, type Order as OrderEntity } from './order.entity.js';
import { orderAmounts } from './order-amounts.js';

const SIMPLE = { simpleResolvers: true } as const;

/** One rate's share of an order's or a checkout's tax (Polar's `TaxBreakdownItem`, docs/tax.md#orders). */
@ObjectType('TaxBreakdownItem', SIMPLE)
export class TaxBreakdownItemType {
  @Field(() => String, { description: 'percentage | fixed' }) rateType!: string;
  @Field(() => Float, { nullable: true, description: 'A percentage rate as a fraction (0.19 for 19 %).' })
  rate!: number | null;
  @Field() displayName!: string;
  @Field(() => String, { nullable: true }) country!: string | null;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field(() => String, { nullable: true }) subdivision!: string | null;
  @Field(() => MinorUnits) amount!: bigint;
  @Field(() => String, {
    description:
      'standard_rated | reverse_charge | not_collecting | not_subject_to_tax | customer_exempt | product_exempt | not_supported',
  })
  taxabilityReason!: string;

  static fromStored(items: readonly TaxBreakdownItem[] | null | undefined): TaxBreakdownItemType[] {
    return (items ?? []).map(i => ({
      rateType: i.rate_type,
      rate: i.rate,
      displayName: i.display_name,
      country: i.country,
      state: i.state,
      subdivision: i.subdivision,
      amount: BigInt(i.amount),
      taxabilityReason: i.taxability_reason,
    }));
  }
}

@ObjectType('OrderItem', SIMPLE)
export class OrderItemType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() label!: string;
  @Field(() => MinorUnits) amount!: bigint;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field() proration!: boolean;
  @Field(() => ID, { nullable: true }) productPriceId!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Start of the period the line covers.' })
  startTimestamp!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'End of the period the line covers.' })
  endTimestamp!: Date | null;

  static fromEntity(i: Readonly<OrderItem>): OrderItemType {
    return {
      id: i.id,
      createdAt: toDate(i.createdAt),
      modifiedAt: toDate(i.modifiedAt),
      label: i.label,
      amount: toBigInt(i.amount),
      taxAmount: toBigInt(i.taxAmount),
      proration: i.proration,
      productPriceId: i.productPriceId,
      startTimestamp: toDate(i.startTimestamp),
      endTimestamp: toDate(i.endTimestamp),
    };
  }
}

/**
 * Polar's OrderSubscription: the subscription's own fields, without what it embeds. The meter period
 * is null (meters do not exist here); the pause fields are the subscription's (pause-subscription.ts).
 */
@ObjectType('OrderSubscription', SIMPLE)
export class OrderSubscriptionType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => MinorUnits) amount!: bigint;
  @Field() currency!: string;
  @Field() recurringInterval!: string;
  @Field(() => Int) recurringIntervalCount!: number;
  @Field(() => SubscriptionStatusEnum) status!: string;
  @Field(() => GraphQLISODateTime) currentPeriodStart!: Date;
  @Field(() => GraphQLISODateTime) currentPeriodEnd!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) currentMeterPeriodStart!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) currentMeterPeriodEnd!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialStart!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) trialEnd!: Date | null;
  @Field() cancelAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) canceledAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endsAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) pastDueAt!: Date | null;
  @Field() pauseAtPeriodEnd!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) pausedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) resumesAt!: Date | null;
  @Field(() => ID) customerId!: string;
  @Field(() => ID) productId!: string;
  @Field(() => ID, { nullable: true }) discountId!: string | null;
  @Field(() => ID, { nullable: true }) checkoutId!: string | null;
  @Field(() => Int, { nullable: true }) seats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Units of a unit-based price: always null, no such prices here.' })
  units!: number | null;
  @Field(() => String, { nullable: true }) customerCancellationReason!: string | null;
  @Field(() => String, { nullable: true }) customerCancellationComment!: string | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;

  static fromEntity(s: Readonly<SubscriptionEntity>): OrderSubscriptionType {
    return {
      id: s.id,
      createdAt: toDate(s.createdAt),
      modifiedAt: toDate(s.modifiedAt),
      amount: toBigInt(s.amount),
      currency: s.currency,
      recurringInterval: s.recurringInterval,
      recurringIntervalCount: s.recurringIntervalCount,
      status: s.status,
      currentPeriodStart: toDate(s.currentPeriodStart),
      currentPeriodEnd: toDate(s.currentPeriodEnd),
      currentMeterPeriodStart: null,
      currentMeterPeriodEnd: null,
      trialStart: toDate(s.trialStart),
      trialEnd: toDate(s.trialEnd),
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      canceledAt: toDate(s.canceledAt),
      startedAt: toDate(s.startedAt),
      endsAt: toDate(s.endsAt),
      endedAt: toDate(s.endedAt),
      pastDueAt: toDate(s.pastDueAt),
      pauseAtPeriodEnd: s.pauseAtPeriodEnd,
      pausedAt: toDate(s.pausedAt),
      resumesAt: toDate(s.resumesAt),
      customerId: s.customerId,
      productId: s.productId,
      discountId: s.discountId,
      checkoutId: s.checkoutId,
      seats: s.seats,
      units: null,
      customerCancellationReason: s.customerCancellationReason,
      customerCancellationComment: s.customerCancellationComment,
      metadata: s.metadata ?? {},
    };
  }
}

/**
 * An order (docs/polar/resources.md#order). The amounts Polar derives are derived once, by
 * `orderAmounts` (net, total, due: an inclusive price's tax is inside it), and here
 * `refundable = net + applied balance − refunded`. The embedded customer, product, price, discount,
 * subscription and items come in the read statement's row (order.read.ts).
 */
@ObjectType('Order', SIMPLE)
@Directive('@key(fields: "id")')
export class OrderType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => OrderStatusEnum)
  status!: string;
  @Field() paid!: boolean;
  @Field(() => MinorUnits) subtotalAmount!: bigint;
  @Field(() => MinorUnits) discountAmount!: bigint;
  @Field(() => MinorUnits) netAmount!: bigint;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field(() => String, {
    nullable: true,
    description: 'inclusive | exclusive: how the tax was computed; null on orders without computed tax.',
  })
  taxBehavior!: string | null;
  @Field(() => [TaxBreakdownItemType]) taxBreakdown!: TaxBreakdownItemType[];
  @Field(() => MinorUnits) totalAmount!: bigint;
  @Field(() => MinorUnits) appliedBalanceAmount!: bigint;
  @Field(() => MinorUnits) dueAmount!: bigint;
  @Field(() => MinorUnits) refundedAmount!: bigint;
  @Field(() => MinorUnits) refundedTaxAmount!: bigint;
  @Field(() => MinorUnits) refundableAmount!: bigint;
  @Field(() => MinorUnits) refundableTaxAmount!: bigint;
  @Field(() => MinorUnits) platformFeeAmount!: bigint;
  @Field(() => String, { nullable: true }) platformFeeCurrency!: string | null;
  @Field() currency!: string;
  @Field(() => String, { description: 'OrderBillingReason' }) billingReason!: string;
  @Field(() => String, { nullable: true }) billingName!: string | null;
  @Field(() => AddressType, { nullable: true }) billingAddress!: AddressType | null;
  @Field(() => String, { nullable: true }) invoiceNumber!: string | null;
  @Field() isInvoiceGenerated!: boolean;
  @Field(() => String, { nullable: true }) receiptNumber!: string | null;
  @Field(() => Int, { nullable: true }) seats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Units of a unit-based price: always null, no such prices here.' })
  units!: number | null;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) productId!: string | null;
  @Field(() => ID, { nullable: true }) productPriceId!: string | null;
  @Field(() => ID, { nullable: true }) discountId!: string | null;
  @Field(() => ID, { nullable: true }) subscriptionId!: string | null;
  @Field(() => ID, { nullable: true }) checkoutId!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) nextPaymentAttemptAt!: Date | null;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => Metadata) customFieldData!: Record<string, unknown>;
  @Field() description!: string;
  @Field(() => [OrderItemType]) items!: OrderItemType[];
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => ProductType, { nullable: true }) product!: ProductType | null;
  @Field(() => ProductPriceType, { nullable: true, description: 'Deprecated: the first item’s price.' })
  productPrice!: ProductPriceType | null;
  @Field(() => DiscountType, { nullable: true }) discount!: DiscountType | null;
  @Field(() => OrderSubscriptionType, { nullable: true }) subscription!: OrderSubscriptionType | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => OrganizationRef) organization!: OrganizationRef;

  /** THE public shape of an order, from a read row (order.read.ts). */
  static fromRow(row: ReadRow): OrderType {
    const o = row.r as OrderEntity;
    const customer = row.customer as CustomerEntity | null;
    if (!customer) throw new Error(`order ${o.id}: customer missing`);
    const product = row.product ? productFromRow(row.product as ProductRow) : null;
    const subtotal = toBigInt(o.subtotalAmount);
    const discount = toBigInt(o.discountAmount);
    const tax = toBigInt(o.taxAmount);
    const balance = toBigInt(o.appliedBalanceAmount);
    const refunded = toBigInt(o.refundedAmount);
    const refundedTax = toBigInt(o.refundedTaxAmount);
    const { net, total, due } = orderAmounts(o);
    const items = ((row.items as OrderItem[] | null) ?? []).map(OrderItemType.fromEntity);
    return {
      id: o.id,
      createdAt: toDate(o.createdAt),
      modifiedAt: toDate(o.modifiedAt),
      status: o.status,
      paid: isPaidOrderStatus(o.status),
      subtotalAmount: subtotal,
      discountAmount: discount,
      netAmount: net,
      taxAmount: tax,
      taxBehavior: o.taxBehavior ?? null,
      taxBreakdown: TaxBreakdownItemType.fromStored(o.taxBreakdown),
      totalAmount: total,
      appliedBalanceAmount: balance,
      dueAmount: due,
      refundedAmount: refunded,
      refundedTaxAmount: refundedTax,
      refundableAmount: net + balance - refunded,
      refundableTaxAmount: tax - refundedTax,
      platformFeeAmount: toBigInt(o.platformFeeAmount),
      platformFeeCurrency: null,
      currency: o.currency,
      billingReason: o.billingReason,
      billingName: o.billingName,
      billingAddress: AddressType.fromStored(o.billingAddress),
      invoiceNumber: o.invoiceNumber,
      isInvoiceGenerated: o.isInvoiceGenerated,
      receiptNumber: receiptNumberOf({ id: o.id, status: o.status, invoiceNumber: o.invoiceNumber, dueAmount: due }),
      seats: o.seats,
      units: null,
      customerId: o.customerId,
      productId: o.productId,
      productPriceId: o.productPriceId,
      discountId: o.discountId,
      subscriptionId: o.subscriptionId,
      checkoutId: o.checkoutId,
      nextPaymentAttemptAt: toDate(o.nextPaymentAttemptAt),
      metadata: o.metadata ?? {},
      customFieldData: o.customFieldData ?? {},
      description: items.map(i => i.label).join(', ') || (product?.name ?? ''),
      items,
      customer: CustomerType.fromEntity(customer),
      product,
      productPrice: row.price ? priceFromRow(row.price as Record<string, unknown>) : null,
      discount: row.discount ? DiscountType.fromEntity(row.discount as DiscountEntity) : null,
      subscription: row.subscription ? OrderSubscriptionType.fromEntity(row.subscription as SubscriptionEntity) : null,
      organizationId: o.organizationId,
      organization: { id: o.organizationId },
    };
  }
}

@ObjectType('OrderList', SIMPLE)
export class OrderList extends ListResource(OrderType) {}

/** Polar's CustomerOrderPaymentConfirmation: the outcome of a customer's manual payment of a pending order. */
@ObjectType('CustomerOrderPaymentConfirmation')
export class CustomerOrderPaymentConfirmationType {
  @Field() status!: string;
  @Field(() => String, { nullable: true }) clientSecret!: string | null;
  @Field(() => String, { nullable: true }) error!: string | null;
}
