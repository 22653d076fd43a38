import { type EntityManager, LockMode, type MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../../../kit/logger.js';
import { recordEvent } from '../events/record-event.js';
import { Order } from '../orders/order.entity.js';
import type { OrganizationClocks } from '../recurring/organization-clocks.js';
import { settleAttempt, Stamp } from '../recurring/renewal-billing.js';
import { Refund } from '../refunds/refund.entity.js';
import { applySucceededRefund } from '../refunds/refund-settlement.js';
import { RefundType } from '../refunds/refund.type.js';
import { refundWire } from '../refunds/refund.wire.js';
import { Subscription } from '../subscriptions/subscription.entity.js';
import type { ChargeOutcome, ProcessorEvent } from './payment-processor.js';
import { Payment } from './payment.entity.js';

/**
 * What applying one processor event did: `handled` (a payment or refund settled), `ignored` (nothing of
 * ours, already settled, or a kind we act on elsewhere), `duplicate` (this event id was applied before),
 * `retry` (it names an order of ours whose payment is not written yet: a renewal still in its
 * transaction, or rolled back and about to be replayed; the processor should send it again later).
 */
export type ProcessorEventOutcome = 'handled' | 'ignored' | 'duplicate' | 'retry';

type ChargeEvent = Extract<ProcessorEvent, { type: 'charge.succeeded' | 'charge.failed' }>;
type RefundEvent = Extract<ProcessorEvent, { type: 'refund.updated' }>;

/**
 * Applies the payment processor's asynchronous outcomes (Stripe's webhooks, verified and mapped by
 * stripe/stripe-webhooks.ts) exactly once: the event's id is inserted into `billing.processor_events`
 * in the same transaction as its effects, so a redelivery, or a concurrent duplicate (it waits on the
 * first one's row, then finds it), changes nothing. Effects are those of the synchronous paths, by the
 * same functions:
 * - a charge that was in flight (`pending`: 3-D Secure, bank debits) settles its payment row; a
 *   renewal or dunning order then goes where an immediate outcome would have taken it (`settleAttempt`:
 *   paid and the subscription active again, or the decline handed to dunning);
 * - a refund the processor answered `pending` succeeds (the order counts it, `order.updated` and
 *   `order.refunded`), or fails or is canceled; either way the merchant hears `refund.updated`.
 * `charge.refunded` is acknowledged only: refunds are settled by their own `refund.updated`, which names
 * the refund rather than a running total.
 */
export class ProcessorEventHandler {
  constructor(
    private readonly orm: MikroORM,
    private readonly clocks: OrganizationClocks,
    private readonly logger?: Logger,
  ) {}

  async apply(event: ProcessorEvent): Promise<ProcessorEventOutcome> {
    const outcome = await this.orm.em
      .fork()
      .transactional(async em => {
        const [fresh] = await em.execute<{ id: string }[]>(
          `insert into billing.processor_events (id, type, outcome, received_at) values (?, ?, '', now())
           on conflict (id) do nothing returning id`,
          [event.eventId, event.type],
        );
        if (!fresh) return 'duplicate' as const;
        const applied = await this.dispatch(em, event);
        // A retry leaves no row: the processor's next delivery of this id is applied afresh.
        if (applied === 'retry') throw new RetryLater();
        await em.execute('update billing.processor_events set outcome = ? where id = ?', [applied, event.eventId]);
        return applied;
      })
      .catch((error: unknown) => {
        if (error instanceof RetryLater) return 'retry' as const;
        throw error;
      });
    this.logger?.info({ processorEvent: event.eventId, type: event.type, outcome }, 'payment processor event');
    return outcome;
  }

  private dispatch(em: EntityManager, event: ProcessorEvent): Promise<Exclude<ProcessorEventOutcome, 'duplicate'>> {
    switch (event.type) {
      case 'charge.succeeded':
      case 'charge.failed':
        return this.settleCharge(em, event);
      case 'refund.updated':
        return this.settleRefund(em, event);
      case 'charge.refunded':
        return Promise.resolve('ignored');
    }
  }

  private async settleCharge(em: EntityManager, event: ChargeEvent): Promise<'handled' | 'ignored' | 'retry'> {
    const found = await em.findOne(Payment, { processorId: event.chargeId }, { orderBy: { createdAt: 'desc' } });
    if (!found) return event.metadata.order_id ? 'retry' : 'ignored';
    // Locks in the renewal engine's order (subscription, order, then the payment), so a dunning retry
    // or a manual payment of the same order waits for this or is waited for.
    const subscriptionId = found.orderId
      ? (await em.findOne(Order, { id: found.orderId }, { fields: ['subscriptionId'] }))?.subscriptionId
      : null;
    const s = subscriptionId
      ? await em.findOne(Subscription, { id: subscriptionId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    const order = found.orderId
      ? await em.findOne(Order, { id: found.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
      : null;
    const payment = await em.findOneOrFail(
      Payment,
      { id: found.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
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
    if (s && order?.status === 'pending') {
      const { attempt, automatic } = attemptOf(payment.idempotencyKey);
      await settleAttempt(em, s, order, attempt, outcome, new Stamp(now), automatic);
    }
    return 'handled';
  }

  private async settleRefund(em: EntityManager, event: RefundEvent): Promise<'handled' | 'ignored'> {
    const found = await em.findOne(Refund, { processorId: event.refundId });
    if (!found || event.status === 'pending') return 'ignored';
    // The order first, as refund.service.ts locks it: one refund of an order at a time.
    const order = await em.findOneOrFail(Order, { id: found.orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const refund = await em.findOneOrFail(Refund, { id: found.id }, { refresh: true });
    // Only a pending refund moves: one settled already keeps the outcome the order counted.
    if (refund.status !== 'pending') return 'ignored';
    const now = (await this.clocks.clockIn(em, refund.organizationId)).now();
    refund.status = event.status;
    refund.failureReason = event.status === 'succeeded' ? null : (event.failureReason ?? event.status);
    refund.modifiedAt = now;
    await em.flush();
    recordEvent(em, refund.organizationId, 'refund.updated', refundWire(RefundType.fromEntity(refund)), now);
    if (event.status === 'succeeded') await applySucceededRefund(em, order, refund, now);
    await em.flush();
    return 'handled';
  }
}

class RetryLater extends Error {}

/**
 * Which attempt a payment was, from its processor key: `charge:subscription:<id>:<period start>:<n>`
 * for the automatic ones (renewals and dunning retries), `charge:order:<id>:manual:<n>` for the
 * customer's own.
 */
function attemptOf(key: string): { attempt: number; automatic: boolean } {
  const attempt = Number(key.slice(key.lastIndexOf(':') + 1)) || 1;
  return { attempt, automatic: key.startsWith('charge:subscription:') };
}
