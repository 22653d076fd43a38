import { isUuid } from '../../../kit/uuid.js';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../../kit/logger.js';
import { OrderRepository } from '../orders/order.repository.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import type { ChargeOutcome, ProcessorEvent } from './payment-processor.js';
import { PaymentRepository } from './payment.repository.js';
import { ProcessorEventRepository } from './processor-event.repository.js';
import type { ProcessorOutcomeHandlers } from './processor-outcome-handlers.js';

/**
 * What applying one processor event did: `handled` (a payment or refund settled), `ignored` (nothing of
 * ours, already settled, or a kind we act on elsewhere), `duplicate` (this event id was applied before).
 */
export type ProcessorEventOutcome = 'handled' | 'ignored' | 'duplicate';

type ChargeEvent = Extract<ProcessorEvent, { type: 'charge.succeeded' | 'charge.failed' }>;

/**
 * Applies the payment processor's asynchronous outcomes (Stripe's webhooks, verified and mapped by
 * stripe/stripe-webhooks.ts) exactly once: the event's id is inserted into `billing.processor_events`
 * in the same transaction as its effects, so a redelivery, or a concurrent duplicate (it waits on the
 * first one's row, then finds it), changes nothing. Effects are those of the synchronous paths, by the
 * same functions, handed over through the handlers the other folders register (processor-outcome-handlers.ts):
 * - a charge that was in flight (`pending`: 3-D Secure, bank debits) settles its payment row; what it
 *   paid for then moves as an immediate outcome would have moved it (the subscriptions' handler takes a
 *   renewal or dunning order: paid and the subscription active again, or the decline handed to dunning);
 * - a checkout's charge or setup that waited for the customer's action (3-D Secure) is the checkouts'
 *   handler's (checkouts/checkout-action-settlement.ts): fulfilled as an immediate success, or reopened;
 * - a refund's outcome is the refunds' handler's (refunds/refund-processor-events.ts);
 * - a dispute opened or changed is the disputes' handler's (disputes/dispute-processor-events.ts).
 * `charge.refunded` is acknowledged only: refunds are settled by their own `refund.updated`, which names
 * the refund rather than a running total.
 */
export class ProcessorEventHandler {
  constructor(
    private readonly orm: MikroORM,
    private readonly clocks: OrganizationClocks,
    private readonly handlers: ProcessorOutcomeHandlers,
    private readonly logger?: Logger,
  ) {}

  async apply(event: ProcessorEvent): Promise<ProcessorEventOutcome> {
    if (event.type === 'charge.succeeded' || event.type === 'charge.failed') await this.awaitRenewalInFlight(event);
    const outcome = await this.orm.em.fork().transactional(async em => {
      const processorEvents = new ProcessorEventRepository(em);
      if (!(await processorEvents.claim(event.eventId, event.type))) return 'duplicate' as const;
      const applied = await this.dispatch(em, event);
      await processorEvents.recordOutcome(event.eventId, applied);
      return applied;
    });
    this.logger?.info({ processorEvent: event.eventId, type: event.type, outcome }, 'payment processor event');
    return outcome;
  }

  /**
   * A renewal charges inside its transaction and writes the payment at its commit, so an event about
   * that charge can arrive before the payment is visible. Every charge of ours names its subscription
   * (`metadata.subscription_id`), whose row the charging transaction holds: when no payment has the
   * charge's id yet, taking that lock (in a transaction of its own, released at once, so the locks below
   * keep the engine's order) waits for the renewal to commit or roll back. A charge of another system on
   * the same Stripe account names no subscription of ours and waits for nothing.
   */
  private async awaitRenewalInFlight(event: ChargeEvent): Promise<void> {
    const subscriptionId = event.metadata.subscription_id;
    if (!subscriptionId || !isUuid(subscriptionId)) return;
    await this.orm.em.fork().transactional(async em => {
      const payments = new PaymentRepository(em);
      if (!(await payments.isKnownCharge(event.chargeId))) await payments.waitForChargeOf(subscriptionId);
    });
  }

  private dispatch(em: EntityManager, event: ProcessorEvent): Promise<Exclude<ProcessorEventOutcome, 'duplicate'>> {
    switch (event.type) {
      case 'charge.succeeded':
      case 'charge.failed':
        return this.settleCharge(em, event);
      case 'refund.updated':
        return this.handlers.settleRefund(em, event, this.clocks);
      case 'setup.succeeded':
      case 'setup.failed':
        return this.handlers.settleSetup(em, event, this.clocks);
      case 'dispute.updated':
        return this.handlers.settleDispute(em, event, this.clocks);
      case 'charge.refunded':
        return Promise.resolve('ignored');
    }
  }

  private async settleCharge(em: EntityManager, event: ChargeEvent): Promise<'handled' | 'ignored'> {
    const payments = new PaymentRepository(em);
    const found = await payments.findNewestByChargeId(event.chargeId);
    if (!found) return 'ignored';
    // Locks in the order a dunning retry and a manual payment take them (the order, its subscription
    // — the handler's — then the payment), so either waits for this or is waited for, never both at once.
    const order = found.orderId ? await new OrderRepository(em).lockFresh(found.orderId) : null;
    // A checkout's charge that waited for 3-D Secure has no order yet: the checkout settles it.
    const settle = order
      ? await this.handlers.prepareCharge(em, order)
      : found.checkoutId
        ? await this.handlers.prepareCheckoutCharge(em, found.checkoutId)
        : null;
    const payment = await payments.lockFresh(found.id);
    // Settled already: synchronously, or by an earlier event about the same charge.
    if (payment.status !== 'pending') return 'ignored';
    const now = (await this.clocks.clockIn(em, payment.organizationId)).now();
    const outcome: ChargeOutcome =
      event.type === 'charge.succeeded'
        ? {
            status: 'succeeded',
            chargeId: event.chargeId,
            amount: event.amount,
            currency: event.currency,
            paymentMethod: { id: null, type: 'card', brand: '', last4: '', expMonth: 0, expYear: 0 },
          }
        : { status: 'failed', chargeId: event.chargeId, failure: event.failure, paymentMethod: null };
    payment.status = outcome.status;
    payment.modifiedAt = now;
    if (outcome.status === 'failed') {
      payment.declineReason = outcome.failure.declineCode ?? outcome.failure.code;
      payment.declineMessage = outcome.failure.message;
    }
    await em.flush();
    await settle?.({ outcome, idempotencyKey: payment.idempotencyKey, now });
    return 'handled';
  }
}
