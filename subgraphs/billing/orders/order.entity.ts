import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { Address } from '../customers/customer.entity.js';
import type { TaxBehavior, TaxBreakdownItem, TaxEvidence } from '../tax/tax.contract.js';

export type OrderStatus = 'draft' | 'pending' | 'paid' | 'refunded' | 'partially_refunded' | 'void';

/** Polar's `paid`: the order was paid, whatever was refunded since. */
export const isPaidOrderStatus = (status: string): boolean =>
  status === 'paid' || status === 'refunded' || status === 'partially_refunded';
export type OrderBillingReason =
  | 'purchase'
  | 'subscription_create'
  | 'subscription_cycle'
  | 'subscription_update'
  | 'subscription_meter_cycle';

/**
 * What a customer was billed (docs/polar/resources.md#order): a checkout's purchase, a subscription's first or
 * next period, a plan change. Created by `createOrder` (orders/create-order.ts), the one pipeline for
 * checkouts and, next, the recurring engine. `net = subtotal − discount`, `total = net + tax`; those
 * are derived, never stored, so they cannot disagree.
 */
@Entity({ tableName: 'orders', schema: 'billing' })
export class Order {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid', nullable: true }) productId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) productPriceId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) subscriptionId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) checkoutId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) discountId: string | null = null;
  @Property({ type: 'text' }) status: OrderStatus = 'pending';
  @Property({ type: 'text' }) billingReason!: OrderBillingReason;
  @Property({ type: 'text' }) currency = 'usd';
  @Property({ type: 'bigint' }) subtotalAmount: bigint = 0n;
  @Property({ type: 'bigint' }) discountAmount: bigint = 0n;
  @Property({ type: 'bigint' }) taxAmount: bigint = 0n;
  /** How the tax was computed (docs/tax.md); null on orders from before tax existed. */
  @Property({ type: 'text', nullable: true }) taxBehavior: TaxBehavior | null = null;
  @Property({ type: 'json' }) taxBreakdown: TaxBreakdownItem[] = [];
  @Property({ type: 'json', nullable: true }) taxEvidence: TaxEvidence | null = null;
  @Property({ type: 'bigint' }) appliedBalanceAmount: bigint = 0n;
  @Property({ type: 'bigint' }) refundedAmount: bigint = 0n;
  @Property({ type: 'bigint' }) refundedTaxAmount: bigint = 0n;
  @Property({ type: 'bigint' }) platformFeeAmount: bigint = 0n;
  @Property({ type: 'text', nullable: true }) billingName: string | null = null;
  @Property({ type: 'json', nullable: true }) billingAddress: Address | null = null;
  @Property({ type: 'text', nullable: true }) invoiceNumber: string | null = null;
  @Property({ type: 'boolean' }) isInvoiceGenerated = false;
  @Property({ type: 'integer', nullable: true }) seats: number | null = null;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'json' }) customFieldData: Record<string, unknown> = {};
  @Property({ type: 'timestamptz', nullable: true }) nextPaymentAttemptAt: Date | null = null;
  /** The start of the period a `subscription_cycle` order bills: one such order per subscription and period. */
  @Property({ type: 'timestamptz', nullable: true }) billingPeriodStart: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
