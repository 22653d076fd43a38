import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { faultPoint } from '../../../../kit/fault-injection.js';
import { recordBalanceEntries, settlementOf } from '../../balances/customer-balance.js';
import type { Discount } from '../../discounts/discount.entity.js';
import { type EventRow, insertEvents } from '../../events/outbox.queries.js';
import { eventJson } from '../../events/record-event.js';
import { invoicePrefix } from '../../orders/create-order.js';
import { orderEventPayload } from '../../orders/order.events.js';
import { Order } from '../../orders/order.entity.js';
import { idempotencyKey } from '../../payments/idempotency-key.js';
import type { ChargeOutcome, PaymentProcessor } from '../../payments/payment-processor.js';
import type { Subscription } from '../subscription.entity.js';
import { NO_PAYMENT_METHOD } from './charge-outcome.js';
import { usageLinesAt } from '../../usage-billing/usage-lines.js';
import { priceRenewal, type Stamp, settleAttempt } from './renewal-billing.js';
import { adjustmentsOf } from './renewal-adjustments.js';
import { RenewalQueries } from './renewal.queries.js';
import { type RenewalTax, renewalOrderTax } from './renewal-tax.js';
import { orderAmounts } from '../../orders/order-amounts.js';

/** Crash test point: a renewal charged, its transaction not committed. */
export const RENEWAL_AFTER_CHARGE_FAULT = 'renewal.after-charge';

/** The subscription's own events of the renewal, recorded with the order's in one insert. */
export interface RenewalEvents {
  types: readonly string[];
  payload: Record<string, unknown>;
  at: Date;
}

/**
 * A renewal's `subscription_cycle` order and its first charge, in the renewal's own transaction (which
 * holds the subscription's row lock and has moved its period), the way `plan-change-charger.ts` bills
 * a change: the customer's row is locked (its balance), the balance used first, what is left charged
 * to the chargeable card *before* the order is written (its id chosen here), and only then the order,
 * its items and its payment written in one statement, then every event of the renewal in one more,
 * which also takes the organization's next invoice number for the order. So the invoice-number row,
 * which every renewal of the organization needs, is locked from the last statement to the commit
 * only: never across the processor call or the payload reads, and a renewal is one transaction.
 *
 * Exactly once: the order is unique per (subscription, period start), and the charge key is
 * `charge:subscription:{id}:{period start}:1`, the key of the period's first attempt whatever order id
 * it is made for: a crash after the processor charged and before the commit rolls everything back,
 * the subscription is still due, and the next pass replays the key and gets the first outcome back.
 * A declined or in-flight charge leaves the order `pending` and hands it to dunning
 * (`settleAttempt`), as a later retry would.
 *
 * `final`: the last order of a subscription canceled at its period's end (docs/usage-billing.md#the-usage-line):
 * Polar bills the ended period's usage (and any proration lines left) without a price line; nothing pending, no
 * order. The subscription has ended, so a declined charge leaves the order pending and is not retried.
 */
export async function billAndChargePeriod(
  em: EntityManager,
  payments: PaymentProcessor,
  s: Subscription,
  discount: Discount | null,
  stamp: Stamp,
  subscriptionEvents: RenewalEvents,
  tax?: RenewalTax | null,
  final = false,
): Promise<void> {
  const at = stamp.at;
  // A final usage order is the one order of the period that would have followed (unique per subscription and
  // period start, like a renewal's).
  const start = final ? s.currentPeriodEnd : s.currentPeriodStart;
  // The product's name and the customer's billing details; the customer's row locked for its balance.
  const renewals = new RenewalQueries(em);
  const names = await renewals.namesLockingCustomer(s);
  if (!names) throw new Error(`subscription ${s.id}: its product or customer is gone`);
  // The balance (a statement of its own after the lock: its snapshot sees entries committed by the
  // transaction the lock waited for), the card to charge (saved-payment-methods.ts' rule) and the
  // proration items due, locked (renewal.queries.ts, taken by renewal-adjustments.ts).
  const wallet = await renewals.walletOf(s, at);
  const adjustments = await adjustmentsOf(em, s, at, wallet.prorations);
  // Usage of the period that ended (docs/usage-billing.md): billed in arrears on this order.
  const usage = await usageLinesAt(em, s, at);
  // Polar makes no final order when nothing is pending.
  if (final && usage.items.length === 0 && adjustments.items.length === 0) return;
  const priced = priceRenewal(s, discount, names.product_name, adjustments.items, usage.items, !final);
  const orderTax = await renewalOrderTax(tax, s, names, priced, at);
  const { total } = orderAmounts({
    subtotalAmount: priced.subtotal,
    discountAmount: priced.discountAmount,
    taxAmount: orderTax.taxAmount,
    taxBehavior: orderTax.taxBehavior,
    appliedBalanceAmount: 0n,
  });
  const settlement = settlementOf(total, BigInt(wallet.balance));
  const orderId = randomUUID();
  const key = idempotencyKey('charge', 'subscription', s.id, start.toISOString(), 1);
  let outcome: ChargeOutcome | null = null;
  if (settlement.dueAmount > 0n) {
    outcome = wallet.processor_id
      ? await payments.charge({
          idempotencyKey: key,
          amount: settlement.dueAmount,
          currency: s.currency,
          customerId: wallet.processor_customer_id,
          paymentMethod: { kind: 'saved', id: wallet.processor_id },
          offSession: true,
          metadata: { order_id: orderId, subscription_id: s.id },
        })
      : NO_PAYMENT_METHOD;
    faultPoint(RENEWAL_AFTER_CHARGE_FAULT);
  }
  const paid = outcome === null || outcome.status === 'succeeded';
  const createdAt = stamp.next(1);
  await renewals.writeRenewalOrder({
    id: orderId,
    s,
    discountId: discount?.id ?? null,
    items: priced.items,
    discountAmount: priced.discountAmount,
    appliedBalanceAmount: settlement.appliedBalanceAmount,
    billingName: names.billing_name ?? names.name,
    billingAddress: names.billing_address,
    tax: orderTax,
    paid,
    createdAt,
    at,
    payment: outcome && { key, amount: settlement.dueAmount, outcome, createdAt: stamp.next(1) },
    periodStart: start,
    // The subscription has ended: a final order's failed charge is not retried (Polar's dunning skips it).
    nextAttemptAt: final ? null : at,
  });
  if (adjustments.items.length > 0) await adjustments.markTaken(orderId);
  await usage.markBilled(orderId);
  if (settlement.used > 0n || settlement.credited > 0n)
    recordBalanceEntries(
      em,
      { id: orderId, organizationId: s.organizationId, customerId: s.customerId, currency: s.currency },
      settlement,
      at,
    );
  const orderPayload = await orderEventPayload(em, { id: orderId, organizationId: s.organizationId } as Order);
  const events: EventRow[] = subscriptionEvents.types.map((type, i) => ({
    type,
    payload: 0,
    at: new Date(subscriptionEvents.at.getTime() + i),
  }));
  // `order.created` tells of the order as it was before its charge: pending, due now.
  const pending = { status: 'pending', paid: false, modified_at: null, next_payment_attempt_at: final ? null : at };
  events.push({ type: 'order.created', payload: 1, patch: paid ? pending : undefined, at: createdAt });
  if (paid)
    events.push(
      { type: 'order.updated', payload: 1, at: stamp.next() },
      { type: 'order.paid', payload: 1, at: stamp.next() },
    );
  // The order's invoice number is taken by this, the renewal's last statement (see insertEvents).
  await insertEvents(em, s.organizationId, [eventJson(subscriptionEvents.payload), eventJson(orderPayload)], events, {
    orderId,
    prefix: invoicePrefix(s.organizationId),
    payload: 1,
  });
  if (!paid && outcome) {
    // Declined or in flight: what any later attempt's outcome does (dunning), on the order as an entity.
    const order = await renewals.orderById(orderId);
    await settleAttempt(em, s, order, 1, outcome, stamp, !final);
  }
  // Balance entries (a rare plan-change credit) go with the unit of work.
  await em.flush();
}
