import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Payment } from './payment.entity.js';

/** Payments as the processor's outcomes find and settle them, on the caller's entity manager. */
export class PaymentRepository {
  constructor(private readonly em: EntityManager) {}

  /** The newest payment of this processor charge, or null (not ours, or not committed yet). */
  findNewestByChargeId(chargeId: string): Promise<Payment | null> {
    return this.em.findOne(Payment, { processorId: chargeId }, { orderBy: { createdAt: 'desc' } });
  }

  /**
   * The order's newest payment, or its newest of one status: the portal's payment status and a
   * receipt's "paid on" (docs/receipts.md). The order must already be known readable by the caller.
   */
  latestOfOrder(orderId: string, status?: Payment['status']): Promise<Payment | null> {
    return this.em.findOne(
      Payment,
      { orderId, ...(status ? { status } : {}) },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
  }

  /** The payment recorded under this processor key, or null. */
  findByKey(idempotencyKey: string): Promise<Payment | null> {
    return this.em.findOne(Payment, { idempotencyKey });
  }

  /** How many payments of the order were recorded under keys starting with `keyPrefix` (its attempts so far). */
  countOfOrderByKeyPrefix(orderId: string, keyPrefix: string): Promise<number> {
    return this.em.count(Payment, { orderId, idempotencyKey: { $like: `${keyPrefix}%` } });
  }

  /** The payment, re-read and row-locked until the transaction ends. */
  lockFresh(id: string): Promise<Payment> {
    return this.em.findOneOrFail(Payment, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** Whether a committed payment carries this processor charge id. */
  async isKnownCharge(chargeId: string): Promise<boolean> {
    const [known] = await this.em.execute<{ id: string }[]>(
      'select id from billing.payments where processor_id = ? limit 1',
      [chargeId],
    );
    return known !== undefined;
  }

  /**
   * Waits for a transaction charging for this subscription to end: the renewal holds the subscription's
   * row while it charges (docs/payments.md), so taking that row lock waits for its commit or rollback.
   */
  async waitForChargeOf(subscriptionId: string): Promise<void> {
    await this.em.execute('select id from billing.subscriptions where id = ? for update', [subscriptionId]);
  }
}
