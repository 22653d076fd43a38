import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Order } from '../orders/order.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { Refund } from './refund.entity.js';

/** Refunds, and the order and payment a refund is taken from. */
export class RefundRepository {
  constructor(private readonly em: EntityManager) {}

  /** The order, row-locked until the transaction ends (one refund of an order at a time). */
  lockOrder(orderId: string): Promise<Order> {
    return this.em.findOneOrFail(Order, { id: orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /** The refund the processor knows by `processorId`. */
  findByProcessorId(processorId: string): Promise<Refund | null> {
    return this.em.findOne(Refund, { processorId });
  }

  /** The refund as it is now in the database (read again, over what the unit of work holds). */
  reload(id: string): Promise<Refund> {
    return this.em.findOneOrFail(Refund, { id }, { refresh: true });
  }

  /** The order's first succeeded payment (the charge a refund gives back). */
  firstSucceededPayment(orderId: string): Promise<Payment | null> {
    return this.em.findOne(Payment, { orderId, status: 'succeeded' }, { orderBy: { createdAt: 'asc' } });
  }

  countOfOrder(orderId: string): Promise<number> {
    return this.em.count(Refund, { orderId });
  }

  /** The sums (as text, exact) of the order's refunds still pending at the processor. */
  async pendingSums(orderId: string): Promise<{ amount: string; tax_amount: string }> {
    const [row] = await this.em.execute<{ amount: string; tax_amount: string }[]>(
      `select coalesce(sum(amount), 0)::text as amount, coalesce(sum(tax_amount), 0)::text as tax_amount
       from billing.refunds where order_id = ? and status = 'pending'`,
      [orderId],
    );
    return row;
  }
}
