import type { EntityManager } from '@mikro-orm/postgresql';
import type { Address } from '../customers/customer.entity.js';
import { recordEvent } from '../events/record-event.js';
import { OrderItem } from './order-item.entity.js';
import { Order, type OrderBillingReason } from './order.entity.js';
import { orderEventPayload } from './order.events.js';
import { OrderRepository } from './order.repository.js';
import { type OrderTax, untaxed } from './sale-tax.js';

export interface NewOrderItem {
  label: string;
  amount: bigint;
  productPriceId: string | null;
  proration?: boolean;
  /** The period the line covers; absent or null for a one-time line. */
  startTimestamp?: Date | null;
  endTimestamp?: Date | null;
}

export interface NewOrder {
  /** Given when the order's id must be known before it exists (the charge key of a plan change). */
  id?: string;
  organizationId: string;
  customerId: string;
  productId: string | null;
  productPriceId: string | null;
  subscriptionId: string | null;
  checkoutId: string | null;
  discountId: string | null;
  billingReason: OrderBillingReason;
  currency: string;
  items: NewOrderItem[];
  discountAmount: bigint;
  billingName: string | null;
  billingAddress: Address | null;
  seats: number | null;
  metadata: Record<string, string | number | boolean>;
  customFieldData?: Record<string, unknown>;
  /** Polar's `applied_balance_amount` (≤ 0 when the customer's balance pays part of it). */
  appliedBalanceAmount?: bigint;
  /** The period a renewal bills (unique per subscription for `subscription_cycle`). */
  billingPeriodStart?: Date | null;
  /** When a pending order is charged (next): a renewal's first attempt, then dunning's retries. */
  nextPaymentAttemptAt?: Date | null;
  /** Its tax (docs/tax.md#orders), one share per item; absent: none computed (tax 0, no behaviour). */
  tax?: OrderTax;
  /**
   * A merchant's draft (`POST /v1/orders`, docs/selling.md#draft-orders): written as `draft` with no
   * invoice number (its finalize takes one once paid, so a failed charge burns none).
   */
  draft?: boolean;
}

/**
 * The one way an order comes to be (checkouts now, renewals and plan changes next): inside the
 * caller's transaction it takes the organization's next invoice number, writes the order and its
 * items as `pending` with `order.created`, and, when `paid`, moves it to `paid` with `order.updated`
 * and `order.paid`, as Polar sends them. A checkout has at most one order (a unique index), so a
 * fulfilment run twice cannot bill twice.
 */
export async function createOrder(em: EntityManager, input: NewOrder, now: Date, paid: boolean): Promise<Order> {
  if (!em.isInTransaction()) throw new Error('createOrder must run inside a transaction');
  const subtotal = input.items.reduce((sum, item) => sum + item.amount, 0n);
  const tax = input.tax ?? untaxed(input.items.length);
  const order = em.create(Order, {
    ...(input.id ? { id: input.id } : {}),
    organizationId: input.organizationId,
    customerId: input.customerId,
    productId: input.productId,
    productPriceId: input.productPriceId,
    subscriptionId: input.subscriptionId,
    checkoutId: input.checkoutId,
    discountId: input.discountId,
    status: input.draft ? 'draft' : 'pending',
    billingReason: input.billingReason,
    currency: input.currency,
    subtotalAmount: subtotal,
    discountAmount: input.discountAmount,
    taxAmount: tax.taxAmount,
    taxBehavior: tax.taxBehavior,
    taxBreakdown: tax.breakdown,
    taxEvidence: tax.evidence,
    appliedBalanceAmount: input.appliedBalanceAmount ?? 0n,
    billingName: input.billingName,
    billingAddress: input.billingAddress,
    invoiceNumber: input.draft ? null : await nextInvoiceNumber(em, input.organizationId),
    seats: input.seats,
    metadata: input.metadata,
    customFieldData: input.customFieldData ?? {},
    billingPeriodStart: input.billingPeriodStart ?? null,
    nextPaymentAttemptAt: paid ? null : (input.nextPaymentAttemptAt ?? null),
    createdAt: now,
  } as Order);
  // Items reference the order (a foreign key) and are not an ORM relation: the order goes in first.
  await em.flush();
  for (const [position, item] of input.items.entries()) {
    em.create(OrderItem, {
      orderId: order.id,
      label: item.label,
      amount: item.amount,
      taxAmount: tax.itemTaxes[position] ?? 0n,
      productPriceId: item.productPriceId,
      proration: item.proration ?? false,
      position,
      startTimestamp: item.startTimestamp ?? null,
      endTimestamp: item.endTimestamp ?? null,
      createdAt: now,
    } as OrderItem);
  }
  await em.flush();
  recordEvent(em, order.organizationId, 'order.created', await orderEventPayload(em, order), now);
  if (paid && !input.draft) {
    order.status = 'paid';
    order.modifiedAt = now;
    await em.flush();
    const payload = await orderEventPayload(em, order);
    recordEvent(em, order.organizationId, 'order.updated', payload, new Date(now.getTime() + 1));
    recordEvent(em, order.organizationId, 'order.paid', payload, new Date(now.getTime() + 2));
  }
  await em.flush();
  return order;
}

/**
 * `<PREFIX>-<n>` from the organization's own counter (one row per organization, incremented in the
 * caller's transaction, so numbers are gapless among committed orders and never repeat).
 */
export async function nextInvoiceNumber(em: EntityManager, organizationId: string): Promise<string> {
  const number = await new OrderRepository(em).takeInvoiceNumber(organizationId);
  return `${invoicePrefix(organizationId)}-${String(number).padStart(4, '0')}`;
}

/** The `<PREFIX>` of an organization's invoice numbers (then `-`, the number, at least 4 digits). */
export function invoicePrefix(organizationId: string): string {
  return organizationId.replace(/-/g, '').slice(0, 8).toUpperCase();
}
