import type { EntityManager } from '@mikro-orm/postgresql';
import { discountAmount } from '../../../../kit/money/discounts.js';
import type { Discount } from '../../discounts/discount.entity.js';
import { DiscountRepository } from '../../discounts/discount.repository.js';
import { recordEvent } from '../../events/record-event.js';
import { createOrder, type NewOrderItem } from '../../orders/create-order.js';
import { orderEventPayload } from '../../orders/order.events.js';
import type { Order } from '../../orders/order.entity.js';
import { orderAmounts } from '../../orders/order-amounts.js';
import { idempotencyKey } from '../../payments/idempotency-key.js';
import type {
  ChargeOutcome,
  NewPaymentMethod,
  PaymentProcessor,
  SavedPaymentMethod as SavedPaymentMethodRef,
} from '../../payments/payment-processor.js';
import { chargeablePaymentMethodFor } from '../../payments/saved-payment-methods.js';
import type { Subscription } from '../subscription.entity.js';
import { recordSubscriptionEvents } from '../subscription.events.js';
import { endAfterDunning, markPastDue, recoverFromDunning } from '../transitions/lifecycle.js';
import { type BillingCadence, nextPeriodEndAfter, nthPeriodEnd, periodIndexAt } from '../../time/calendar.js';
import { type DiscountDuration, discountAppliesTo } from '../../pricing/discount-duration.js';
import { NO_PAYMENT_METHOD, recordOrderCharge } from './charge-outcome.js';
import { afterFailedAttempt } from './dunning.js';
import { takeRenewalAdjustments } from './renewal-adjustments.js';
import { RenewalQueries } from './renewal.queries.js';
import { usageLinesAt } from '../../usage-billing/usage-lines.js';
import { type RenewalTax, renewalOrderTax } from './renewal-tax.js';

/**
 * The money side of a renewal, inside the caller's transaction (which holds the subscription's row
 * lock): the period's order, its charge, and what a failed charge does (dunning.ts). Every object is
 * stamped with `at`, the instant the work was due, and each event of one change a millisecond after
 * the one before, so the outbox's (created_at, id) order is the order Polar sends them in.
 */

/** A stamp that moves forward by a millisecond per event recorded. */
export class Stamp {
  private offset = 0;
  constructor(readonly at: Date) {}
  next(count = 1): Date {
    const d = new Date(this.at.getTime() + this.offset);
    this.offset += count;
    return d;
  }
}

/**
 * The calendar of a subscription. Its anchor is the start of its first billed period (the trial's end,
 * else `started_at`); when the current period end is not one of that anchor's boundaries (a billing
 * period change, a resume) the current period end itself becomes the anchor.
 */
export function cadenceOf(s: Subscription): BillingCadence {
  const interval = s.recurringInterval;
  const count = s.recurringIntervalCount;
  const first = s.trialEnd ?? s.startedAt;
  if (first) {
    const cadence = { interval, count, anchor: first };
    const n = periodIndexAt(cadence, s.currentPeriodEnd);
    if (nthPeriodEnd(cadence, n).getTime() === s.currentPeriodEnd.getTime()) return cadence;
  }
  return { interval, count, anchor: s.currentPeriodEnd };
}

/** The next period after the current one: it starts where the current one ends. */
export function nextPeriod(s: Subscription): { start: Date; end: Date } {
  const start = s.currentPeriodEnd;
  return { start, end: nextPeriodEndAfter(cadenceOf(s), start) };
}

/** The discount for the period starting at `periodStart`, or null when its duration is over (then cleared). */
export async function discountForPeriod(
  em: EntityManager,
  s: Subscription,
  periodStart: Date,
): Promise<Discount | null> {
  if (!s.discountId) return null;
  const discount = await new DiscountRepository(em).findById(s.discountId);
  if (!discount) return null;
  const duration: DiscountDuration =
    discount.duration === 'repeating'
      ? { duration: 'repeating', durationInMonths: discount.durationInMonths ?? 1 }
      : { duration: discount.duration as 'once' | 'forever' };
  const firstBilled = s.trialEnd ?? s.startedAt ?? s.createdAt;
  return discountAppliesTo(duration, firstBilled, periodStart) ? discount : null;
}

/**
 * The `subscription_cycle` order of the current period (unique per subscription and period start: a
 * second one cannot be written), `pending` and due for its first payment attempt now. The charge is a
 * transaction of its own (the organization's invoice number counter stays locked only briefly).
 */
export async function billPeriod(
  em: EntityManager,
  s: Subscription,
  discount: Discount | null,
  stamp: Stamp,
  tax?: RenewalTax | null,
): Promise<Order> {
  const start = s.currentPeriodStart;
  // The product's name and the customer's billing details in one statement (no entity loads).
  const names = await new RenewalQueries(em).namesOf(s);
  if (!names) throw new Error(`subscription ${s.id}: its product or customer is gone`);
  const adjustments = await takeRenewalAdjustments(em, s, stamp.at);
  const usage = await usageLinesAt(em, s, stamp.at);
  const priced = priceRenewal(s, discount, names.product_name, adjustments.items, usage.items);
  const { items, discountAmount: off } = priced;
  const orderTax = await renewalOrderTax(tax, s, names, priced, stamp.at);
  const order = await createOrder(
    em,
    {
      organizationId: s.organizationId,
      customerId: s.customerId,
      productId: s.productId,
      productPriceId: s.priceIds[0] ?? null,
      subscriptionId: s.id,
      checkoutId: null,
      discountId: discount?.id ?? null,
      billingReason: 'subscription_cycle',
      currency: s.currency,
      items,
      discountAmount: off,
      billingName: names.billing_name ?? names.name,
      billingAddress: names.billing_address,
      seats: s.seats,
      metadata: s.metadata,
      billingPeriodStart: start,
      // Charged right after this transaction commits (renewal-engine.ts), or by the next pass after a crash.
      nextPaymentAttemptAt: stamp.at,
      tax: orderTax,
    },
    stamp.next(1),
    false,
  );
  // Marks the proration items taken and applies the customer's balance to the order (its
  // `applied_balance_amount`), which `dueAmount` then charges net of.
  await adjustments.commit(order.id, orderAmounts(order).total);
  await usage.markBilled(order.id);
  return order;
}

/**
 * The lines of a period's renewal order (the price, then the proration lines a `prorate` change left)
 * and its discount, never more than the subtotal.
 */
export function priceRenewal(
  s: Subscription,
  discount: Discount | null,
  productName: string,
  adjustments: NewOrderItem[],
  usage: NewOrderItem[] = [],
  withPrice = true,
): { items: NewOrderItem[]; subtotal: bigint; discountAmount: bigint } {
  // A row re-read with `em.refresh` (the PATCH's resume) hydrates the bigint column as a string. A final usage
  // order (a cancellation at period end) has no price line: no period follows.
  const regular = withPrice ? BigInt(s.amount) : 0n;
  // Polar's rule: the discount applies to the cycle's price and its usage lines, not to proration lines.
  const discountable = usage.reduce((sum, item) => sum + item.amount, regular);
  const off = discount
    ? discountAmount(
        discount.type === 'fixed'
          ? { type: 'fixed', amounts: { [discount.currency ?? s.currency]: BigInt(discount.amount ?? 0n) } }
          : { type: 'percentage', basisPoints: discount.basisPoints ?? 0 },
        discountable,
        s.currency,
      )
    : 0n;
  // The price's line covers the period the order bills (the subscription's current one).
  const price = {
    label: productName,
    amount: regular,
    productPriceId: s.priceIds[0] ?? null,
    startTimestamp: s.currentPeriodStart,
    endTimestamp: s.currentPeriodEnd,
  };
  const items = [...(withPrice ? [price] : []), ...usage, ...adjustments];
  const subtotal = items.reduce((sum, item) => sum + item.amount, 0n);
  return { items, subtotal, discountAmount: off > subtotal ? (subtotal > 0n ? subtotal : 0n) : off };
}

/** What is left to pay of an order: net + tax + the balance applied (≤ 0 when the balance paid part, Polar's sign). */
export function dueAmount(order: Order): bigint {
  return orderAmounts(order).total + BigInt(order.appliedBalanceAmount);
}

/** Declines no retry can fix: dunning jumps to its deadline (Polar's non-recoverable decline codes). */
const NON_RECOVERABLE = new Set(['lost_card', 'stolen_card', 'pickup_card', 'restricted_card', 'fraudulent']);

/** A card the customer names for a manual attempt (a saved one of theirs, or one just entered). */
export interface ChosenMethod {
  /** The processor's customer (null: a card entered now, charged once without a customer). */
  customerId: string | null;
  paymentMethod: NewPaymentMethod | SavedPaymentMethodRef;
}

export type AttemptKind =
  | { kind: 'automatic'; firstAttempt?: boolean }
  | { kind: 'manual'; attempt: number; method: ChosenMethod | null };

/**
 * One payment attempt of a pending renewal order, recorded as a payment of the order whatever its
 * outcome. The automatic attempts' processor key is derived from (subscription, period start, attempt
 * number), so a replay after a crash (the transaction rolled back, the money maybe moved) sends the
 * same key and gets the first outcome back: one charge per attempt, whatever happens.
 */
export async function attemptPayment(
  em: EntityManager,
  payments: PaymentProcessor,
  s: Subscription,
  order: Order,
  stamp: Stamp,
  how: AttemptKind = { kind: 'automatic' },
): Promise<{ status: ChargeOutcome['status'] | 'paid'; message: string | null; clientSecret?: string }> {
  const due = dueAmount(order);
  if (due <= 0n) {
    await markPaid(em, s, order, stamp);
    return { status: 'paid', message: null };
  }
  const automatic = how.kind === 'automatic';
  const attempt = how.kind === 'manual' ? how.attempt : how.firstAttempt ? 1 : (await automaticAttempts(em, order)) + 1;
  const key = automatic
    ? idempotencyKey('charge', 'subscription', s.id, order.billingPeriodStart!.toISOString(), attempt)
    : idempotencyKey('charge', 'order', order.id, 'manual', attempt);
  const chosen = how.kind === 'manual' ? how.method : null;
  const saved = chosen ? null : await chargeablePaymentMethodFor(em, s.customerId);
  const method: ChosenMethod | null =
    chosen ??
    (saved ? { customerId: saved.processorCustomerId, paymentMethod: { kind: 'saved', id: saved.processorId } } : null);
  const outcome: ChargeOutcome = method
    ? await payments.charge({
        idempotencyKey: key,
        amount: due,
        currency: order.currency,
        customerId: method.customerId,
        paymentMethod: method.paymentMethod,
        offSession: automatic,
        metadata: { order_id: order.id, subscription_id: s.id },
      })
    : NO_PAYMENT_METHOD;
  recordOrderCharge(em, order, {
    key,
    trigger: automatic ? (attempt === 1 ? 'subscription_cycle' : 'retry_dunning') : 'retry_customer',
    amount: due,
    outcome,
    at: stamp.next(1),
  });
  return settleAttempt(em, s, order, attempt, outcome, stamp, automatic);
}

/**
 * What an attempt's outcome does to its order (its payment row written already): paid; in flight (a
 * processor event settles it); or failed, which an automatic attempt hands to dunning.
 */
export async function settleAttempt(
  em: EntityManager,
  s: Subscription,
  order: Order,
  attempt: number,
  outcome: ChargeOutcome,
  stamp: Stamp,
  automatic = true,
): Promise<{ status: ChargeOutcome['status']; message: string | null; clientSecret?: string }> {
  if (outcome.status === 'succeeded') {
    await markPaid(em, s, order, stamp);
    return { status: 'succeeded', message: null };
  }
  if (outcome.status === 'pending') {
    // Settled by the processor's event later; nothing is retried meanwhile.
    order.nextPaymentAttemptAt = null;
    await em.flush();
    return { status: 'pending', message: null };
  }
  if (outcome.status === 'requires_action') {
    // Only a customer's own (on-session) payment asks for 3-D Secure: dunning keeps its schedule
    // (the customer may never answer), and the processor's event settles this attempt.
    await em.flush();
    return { status: 'requires_action', message: null, clientSecret: outcome.clientSecret };
  }
  if (automatic) await failedAutomatically(em, s, order, attempt, outcome, stamp);
  else await em.flush();
  return { status: 'failed', message: outcome.failure.message };
}

function automaticAttempts(em: EntityManager, order: Order): Promise<number> {
  return new RenewalQueries(em).automaticAttempts(order.id);
}

/** The order is paid; a past-due subscription is active again (`subscription.active`, Polar's reactivation). */
export async function markPaid(em: EntityManager, s: Subscription, order: Order, stamp: Stamp): Promise<void> {
  const now = stamp.at;
  order.status = 'paid';
  order.nextPaymentAttemptAt = null;
  order.modifiedAt = now;
  const recovered = recoverFromDunning(s, now);
  await em.flush();
  const payload = await orderEventPayload(em, order);
  recordEvent(em, order.organizationId, 'order.updated', payload, stamp.next());
  recordEvent(em, order.organizationId, 'order.paid', payload, stamp.next());
  if (recovered.changed) {
    const types = ['subscription.updated', ...recovered.events];
    await recordSubscriptionEvents(em, s, types, stamp.next(types.length));
  }
  await em.flush();
}

/**
 * A failed automatic attempt: the first makes the subscription `past_due`; dunning.ts decides the next
 * attempt (the order's `next_payment_attempt_at`) or the end (the subscription revoked, the order void).
 */
async function failedAutomatically(
  em: EntityManager,
  s: Subscription,
  order: Order,
  attempt: number,
  outcome: Extract<ChargeOutcome, { status: 'failed' }>,
  stamp: Stamp,
): Promise<void> {
  const now = stamp.at;
  const subscriptionEvents: string[] = [];
  const pastDue = markPastDue(s, now);
  if (pastDue.changed) subscriptionEvents.push('subscription.updated', ...pastDue.events);
  const decision = afterFailedAttempt({
    failedAttempts: attempt,
    failedAt: now,
    pastDueAt: s.pastDueAt ?? now,
    recoverable: !NON_RECOVERABLE.has(outcome.failure.declineCode ?? outcome.failure.code),
  });
  order.modifiedAt = now;
  if (decision.action === 'retry') order.nextPaymentAttemptAt = decision.at;
  else {
    order.nextPaymentAttemptAt = null;
    order.status = 'void';
    const ended = endAfterDunning(s, now);
    subscriptionEvents.splice(0, subscriptionEvents.length, 'subscription.updated', ...ended.events);
  }
  await em.flush();
  if (subscriptionEvents.length > 0) {
    await recordSubscriptionEvents(em, s, subscriptionEvents, stamp.next(subscriptionEvents.length));
  }
  recordEvent(em, order.organizationId, 'order.updated', await orderEventPayload(em, order), stamp.next());
  await em.flush();
}
