import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Order } from '../orders/order.entity.js';
import { Payment } from '../payments/payment.entity.js';
import { Dispute } from './dispute.entity.js';

/** Disputes, and the payment and order a processor's dispute names. */
export class DisputeRepository {
  constructor(private readonly em: EntityManager) {}

  findByProcessorId(processorId: string): Promise<Dispute | null> {
    return this.em.findOne(Dispute, { processorId });
  }

  /** The dispute the processor knows by `processorId`, row-locked until the transaction ends. */
  lockByProcessorId(processorId: string): Promise<Dispute | null> {
    return this.em.findOne(Dispute, { processorId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  byId(id: string): Promise<Dispute> {
    return this.em.findOneOrFail(Dispute, { id });
  }

  lock(id: string): Promise<Dispute> {
    return this.em.findOneOrFail(Dispute, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** The succeeded payment of the disputed charge (the newest, should a charge id ever repeat). */
  succeededPaymentOf(chargeId: string): Promise<Payment | null> {
    return this.em.findOne(Payment, { processorId: chargeId, status: 'succeeded' }, { orderBy: { createdAt: 'desc' } });
  }

  /** The order's first succeeded payment (the charge the sandbox disputes). */
  firstSucceededPayment(orderId: string): Promise<Payment | null> {
    return this.em.findOne(Payment, { orderId, status: 'succeeded' }, { orderBy: { createdAt: 'asc' } });
  }

  order(id: string): Promise<Order | null> {
    return this.em.findOne(Order, { id });
  }
}
