import { subscriptionPriceIds } from '../usage-billing/subscription-prices.js';
import { type MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { faultPoint } from '../../../kit/fault-injection.js';
import { recordCheckoutEvent } from './checkout.events.js';
import type { JobHandler } from '../jobs/job-queue.js';
import { createOrder } from '../orders/create-order.js';
import type { PaymentMethodDetails, PaymentProcessor } from '../payments/payment-processor.js';
import { keepPaymentMethod } from '../payments/saved-payment-methods.js';
import type { RecurringInterval } from '../shared/enums.js';
import { SubscriptionStatus } from '../shared/enums.js';
import { Subscription } from '../subscriptions/subscription.entity.js';
import { recordSubscriptionEvents } from '../subscriptions/subscription.events.js';
import { activateFromCheckout } from '../subscriptions/transitions/lifecycle.js';
import { addInterval } from '../time/calendar.js';
import { checkoutRead } from './checkout.read.js';
import { type FulfilmentPayload, processorCall } from './checkout-confirm.js';
import { CheckoutType } from './checkout.type.js';
import { CheckoutRepository } from './checkout.repository.js';
import type { Checkout } from './checkout.entity.js';
import { type OrderTax, untaxed } from '../orders/sale-tax.js';

/**
 * The order's tax is the checkout's, as computed for the amount just charged (docs/tax.md#orders); a
 * trial's first order is 0 and carries none.
 */
function checkoutOrderTax(k: Checkout, trialing: boolean): OrderTax {
  if (trialing) return { ...untaxed(1), taxBehavior: k.taxBehavior };
  const tax = k.taxAmount == null ? 0n : BigInt(k.taxAmount);
  return {
    taxAmount: tax,
    taxBehavior: k.taxBehavior,
    breakdown: k.taxBreakdown ?? [],
    evidence: k.taxEvidence,
    itemTaxes: [tax],
  };
}

/** The crash test's point: the money has moved, the order is not committed yet. */
export const AFTER_CHARGE_FAULT = 'checkout.after-charge';

/**
 * The durable second half of a confirm (job `checkout.fulfil:{checkout id}`). It first replays the
 * processor call with the confirm's key — the processor answers the first outcome, so this charges
 * nothing new and proves the money is there (unless the processor's event settled a payment that waited for
 * 3-D Secure: that event is the proof, checkout-action-settlement.ts) — then, in one transaction under the checkout's row lock:
 * the saved card, the subscription (`active`, `trialing`, or the upgraded free one), the order
 * (`paid`, its invoice number, its items), the payment linked to it, the
 * checkout `succeeded`, and their events. Run twice (a crash, a second worker), it finds the checkout
 * succeeded and does nothing; the order's unique checkout id makes a second order impossible anyway.
 */
export function checkoutFulfilment(deps: {
  orm: MikroORM;
  clock: Clock;
  payments: PaymentProcessor;
  publicUrl: string;
}): JobHandler {
  return async raw => {
    const payload = raw as unknown as FulfilmentPayload;
    const first = await new CheckoutRepository(deps.orm.em.fork()).findById(payload.checkoutId);
    if (!first || first.status === 'succeeded') return;
    let method: PaymentMethodDetails | null = payload.settled?.paymentMethod ?? null;
    if (payload.mode !== 'none' && !payload.settled) {
      const outcome = await processorCall(deps.payments, payload);
      if (outcome.status !== 'succeeded')
        throw new Error(`checkout ${payload.checkoutId}: payment is ${outcome.status}`);
      method = outcome.paymentMethod;
    }
    faultPoint(AFTER_CHARGE_FAULT);
    await deps.orm.em.fork().transactional(async em => {
      const checkouts = new CheckoutRepository(em);
      const k = await checkouts.findForUpdate({ id: payload.checkoutId });
      if (k?.status !== 'confirmed') return;
      // After the confirm's own rows, even when the clock has not moved since (a sandbox clock), so the
      // outbox's (created_at, id) order is the order of the sale.
      const now = new Date(Math.max(deps.clock.now().getTime(), new Date(k.modifiedAt ?? k.createdAt).getTime() + 2));
      const customer = await checkouts.customer(k.customerId!);
      const product = await checkouts.product(k.productId);
      // The card kept for renewals (a first charge with saveForLater, or a trial's setup).
      if (method?.id && payload.processorCustomerId) {
        const saved = await keepPaymentMethod(em, customer, {
          processor: deps.payments.name,
          processorCustomerId: payload.processorCustomerId,
          method: { ...method, id: method.id },
          now,
        });
        // The first card becomes the default (what renewals charge); a later one leaves it as it is.
        if (!customer.defaultPaymentMethodId) customer.defaultPaymentMethodId = saved.id;
      }
      const trialing = payload.mode === 'setup';
      const amount = BigInt(k.amount);
      let subscription: Subscription | null = null;
      let billingReason: 'purchase' | 'subscription_create' | 'subscription_update' = 'purchase';
      const subscriptionEvents: string[] = [];
      if (k.subscriptionId) {
        // Upgrading a free subscription: the same subscription, now on the paid product.
        subscription = await checkouts.subscriptionOfOrganization(k.subscriptionId, k.organizationId);
        const activated = activateFromCheckout(
          subscription,
          {
            productId: product.id,
            priceId: k.productPriceId,
            amount,
            currency: k.currency,
            discountId: k.discountId,
            checkoutId: k.id,
            seats: k.seats,
            cadence: product.recurringInterval
              ? { interval: product.recurringInterval, count: product.recurringIntervalCount ?? 1 }
              : null,
          },
          now,
        );
        billingReason = 'subscription_update';
        subscriptionEvents.push('subscription.updated', ...activated.events);
      } else if (product.recurringInterval) {
        const interval = product.recurringInterval;
        const count = product.recurringIntervalCount ?? 1;
        const trialInterval = (k.trialInterval ?? product.trialInterval) as RecurringInterval | null;
        const trialEnd =
          trialing && trialInterval
            ? addInterval(now, trialInterval, k.trialIntervalCount ?? product.trialIntervalCount ?? 1)
            : null;
        subscription = em.create(Subscription, {
          organizationId: k.organizationId,
          customerId: customer.id,
          productId: product.id,
          discountId: k.discountId,
          checkoutId: k.id,
          priceIds: await subscriptionPriceIds(em, product.id, k.productPriceId, k.currency),
          amount,
          currency: k.currency,
          recurringInterval: interval,
          recurringIntervalCount: count,
          status: trialEnd ? SubscriptionStatus.TRIALING : SubscriptionStatus.ACTIVE,
          startedAt: now,
          currentPeriodStart: now,
          currentPeriodEnd: trialEnd ?? addInterval(now, interval, count),
          trialStart: trialEnd ? now : null,
          trialEnd,
          seats: k.seats,
          metadata: k.metadata ?? {},
          customFieldData: k.customFieldData ?? {},
          createdAt: now,
        } as Subscription);
        billingReason = 'subscription_create';
        subscriptionEvents.push('subscription.created');
        if (!trialEnd) subscriptionEvents.push('subscription.active');
      }
      await em.flush();
      if (subscription) await recordSubscriptionEvents(em, subscription, subscriptionEvents, now);
      // A trial's first order is 0: nothing is billed until the trial ends (Polar records it all the same).
      const order = await createOrder(
        em,
        {
          organizationId: k.organizationId,
          customerId: customer.id,
          productId: product.id,
          productPriceId: k.productPriceId,
          subscriptionId: subscription?.id ?? null,
          checkoutId: k.id,
          discountId: trialing ? null : k.discountId,
          billingReason,
          currency: k.currency,
          items: [
            {
              label: trialing ? `${product.name} (trial)` : product.name,
              amount: trialing ? 0n : amount,
              productPriceId: k.productPriceId,
              // A subscription's first order covers its first period (the trial, when there is one).
              startTimestamp: subscription?.currentPeriodStart ?? null,
              endTimestamp: subscription?.currentPeriodEnd ?? null,
            },
          ],
          discountAmount: trialing ? 0n : BigInt(k.discountAmount),
          billingName: k.customerBillingName ?? customer.billingName ?? customer.name,
          billingAddress: k.customerBillingAddress ?? customer.billingAddress,
          seats: k.seats,
          metadata: k.metadata ?? {},
          customFieldData: k.customFieldData ?? {},
          tax: checkoutOrderTax(k, trialing),
        },
        new Date(now.getTime() + subscriptionEvents.length),
        true,
      );
      await checkouts.linkSucceededPayments(k.id, order.id, customer.id);
      // The discount's redemption was taken by the confirm (checkout-confirm.ts, reserveDiscount).
      k.status = 'succeeded';
      k.modifiedAt = now;
      await em.flush();
      const [row] = await checkoutRead.byIdsIn(em, { organizationIds: [k.organizationId], customerId: null }, [k.id]);
      const shaped = CheckoutType.fromRow(row!, { now, publicUrl: deps.publicUrl });
      recordCheckoutEvent(
        em,
        k.organizationId,
        'checkout.updated',
        shaped,
        new Date(now.getTime() + subscriptionEvents.length + 3),
      );
      await em.flush();
    });
  };
}
