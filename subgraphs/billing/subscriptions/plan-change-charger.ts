import { randomUUID } from 'node:crypto';
import { recordBalanceEntries, settleWithBalance } from '../balances/customer-balance.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import { createOrder } from '../orders/create-order.js';
import { idempotencyKey } from '../payments/idempotency-key.js';
import { Payment } from '../payments/payment.entity.js';
import type { ChargeOutcome, PaymentProcessor } from '../payments/payment-processor.js';
import { chargeablePaymentMethodFor } from '../payments/saved-payment-methods.js';
import type { SaleTax } from '../orders/sale-tax.js';
import { type PlanChangeQuote, quotePlanChange } from './plan-change-quote.js';
import { ProrationItem } from './proration-item.entity.js';
import type { PaidChange, SubscriptionCharger } from './subscription.charger.js';
import { PaymentFailed } from './subscription.errors.js';
import { restartPeriod } from './transitions/lifecycle.js';

/**
 * The real `SubscriptionCharger`: what a plan or seat change does with money, inside the update's
 * transaction (docs/subscriptions.md#subscription-updates).
 *
 * - `invoice` (and a reset, a change of interval, the end of a trial): the customer's balance is used
 *   first; what is left is charged now to the customer's default saved card (off-session, key
 *   `charge:{order id}:1`), and only then the order is written, `paid`, with its items, the payment and
 *   the balance entries. A decline throws 402 `PaymentFailed` (`card_error`; no saved card:
 *   `missing_payment_method`) and the transaction rolls back: no order, no payment row, the
 *   subscription as it was. The decline stays in the processor's own ledger only: a payment belongs to
 *   an order, and there is none (Polar's update raises before it records anything either). A credit
 *   larger than the charge makes a `paid` order with a negative total and adds the difference to the
 *   customer's balance.
 * - `prorate`: nothing is charged (a paid plan still needs a saved card: 402 `missing_payment_method`
 *   otherwise, as before this charger existed); the proration lines wait in `subscription_proration_items` for the
 *   next renewal order (lifecycle/renewal-adjustments.ts).
 * - `next_period`: nothing (the pending update is stored by the transition).
 */
export class PlanChangeCharger implements SubscriptionCharger {
  constructor(
    private readonly payments: PaymentProcessor,
    private readonly tax: SaleTax | null = null,
  ) {}

  async chargeNow(change: PaidChange): Promise<void> {
    const quote = await quotePlanChange(change, this.tax);
    if (quote.behavior === 'next_period') return;
    if (quote.behavior === 'prorate') {
      // The renewal will charge the new plan: a paid plan needs a card to charge (Polar's 402).
      if (change.to.amount > 0n && !(await chargeablePaymentMethodFor(change.em, change.subscription.customerId)))
        throw new PaymentFailed('missing_payment_method');
      return storeProrations(change, quote);
    }
    await this.invoice(change, quote);
  }

  private async invoice(change: PaidChange, quote: PlanChangeQuote): Promise<void> {
    const { em, subscription: s, now } = change;
    const { preview } = quote;
    const settlement = await settleWithBalance(em, s.customerId, preview.currency, preview.total_amount);
    const orderId = randomUUID();
    let charged: { outcome: ChargeOutcome & { status: 'succeeded' }; key: string } | null = null;
    if (settlement.dueAmount > 0n) {
      const method = await chargeablePaymentMethodFor(em, s.customerId);
      if (!method) throw new PaymentFailed('missing_payment_method');
      const key = idempotencyKey('charge', orderId, 1);
      const outcome = await this.payments.charge({
        idempotencyKey: key,
        amount: settlement.dueAmount,
        currency: preview.currency,
        customerId: method.processorCustomerId,
        paymentMethod: { kind: 'saved', id: method.processorId },
        offSession: true,
        description: 'Subscription update',
        metadata: { subscription_id: s.id, order_id: orderId },
      });
      // A charge still in flight (3-D Secure) cannot be asked for off-session: the change fails as a decline.
      if (outcome.status !== 'succeeded') throw new PaymentFailed('card_error');
      charged = { outcome, key };
    }
    // Proration lines cover the rest of the period the change happens in; a new price's line, the period
    // the change starts when it resets the billing cycle.
    const remaining = { startTimestamp: now, endTimestamp: s.currentPeriodEnd };
    if (quote.resetsPeriod) {
      restartPeriod(s, now);
    }
    const customer = await new CustomerRepository(em).findByIdOrFail(s.customerId);
    const order = await createOrder(
      em,
      {
        id: orderId,
        organizationId: s.organizationId,
        customerId: s.customerId,
        productId: s.productId,
        productPriceId: s.priceIds[0] ?? null,
        subscriptionId: s.id,
        checkoutId: null,
        discountId: preview.discount_amount > 0n ? s.discountId : null,
        billingReason: quote.billingReason,
        currency: preview.currency,
        items: preview.items.map(item => ({
          label: item.label,
          amount: item.amount,
          productPriceId: null,
          proration: item.proration,
          ...(item.proration ? remaining : { startTimestamp: s.currentPeriodStart, endTimestamp: s.currentPeriodEnd }),
        })),
        discountAmount: preview.discount_amount,
        billingName: customer.billingName ?? customer.name,
        billingAddress: customer.billingAddress,
        seats: s.seats,
        metadata: {},
        appliedBalanceAmount: settlement.appliedBalanceAmount,
        tax: quote.tax ?? undefined,
      },
      now,
      true,
    );
    recordBalanceEntries(em, order, settlement, now);
    if (charged) {
      const method = charged.outcome.paymentMethod;
      em.create(Payment, {
        organizationId: s.organizationId,
        customerId: s.customerId,
        checkoutId: null,
        orderId: order.id,
        processor: 'stripe',
        idempotencyKey: charged.key,
        // Polar bills a subscription update through its cycle path, with the cycle's trigger.
        trigger: 'subscription_cycle',
        status: 'succeeded',
        amount: settlement.dueAmount,
        currency: preview.currency,
        method: 'card',
        methodMetadata: {
          brand: method.brand,
          last4: method.last4,
          exp_month: method.expMonth,
          exp_year: method.expYear,
        },
        processorId: charged.outcome.chargeId,
        declineReason: null,
        declineMessage: null,
        processorMetadata: {},
        createdAt: now,
      } as Partial<Payment> as Payment);
    }
    await em.flush();
  }
}

/** `prorate`: the change's proration lines, kept for the next renewal order. */
async function storeProrations(change: PaidChange, quote: PlanChangeQuote): Promise<void> {
  const { em, subscription: s, now } = change;
  const prorations = quote.preview.items.filter(item => item.proration);
  for (const [position, item] of prorations.entries()) {
    em.create(ProrationItem, {
      organizationId: s.organizationId,
      subscriptionId: s.id,
      customerId: s.customerId,
      currency: quote.preview.currency,
      label: item.label,
      amount: item.amount,
      position,
      startTimestamp: now,
      endTimestamp: s.currentPeriodEnd,
      createdAt: now,
    });
  }
  await em.flush();
}
