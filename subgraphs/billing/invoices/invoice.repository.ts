import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Order } from '../orders/order.entity.js';
import { OrderInvoice } from './invoice.entity.js';

/** Stored invoices, and the order an invoice is generated for. */
export class InvoiceRepository {
  constructor(private readonly em: EntityManager) {}

  /** The order, row-locked until the transaction ends (one generation of its invoice at a time). */
  lockOrder(orderId: string): Promise<Order> {
    return this.em.findOneOrFail(Order, { id: orderId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /** The order's stored invoice, without its PDF. */
  findOfOrder(orderId: string): Promise<OrderInvoice | null> {
    return this.em.findOne(OrderInvoice, { orderId });
  }

  /** The order's stored invoice with its PDF. */
  findOfOrderWithPdf(orderId: string): Promise<OrderInvoice | null> {
    return this.em.findOne(OrderInvoice, { orderId }, { populate: ['pdf'] as never });
  }
}
