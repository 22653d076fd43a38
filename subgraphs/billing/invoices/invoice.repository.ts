import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderInvoice } from './invoice.entity.js';

/** Stored invoices of orders. */
export class InvoiceRepository {
  constructor(private readonly em: EntityManager) {}

  /** The order's stored invoice, without its PDF. */
  findOfOrder(orderId: string): Promise<OrderInvoice | null> {
    return this.em.findOne(OrderInvoice, { orderId });
  }

  /** The order's stored invoice with its PDF. */
  findOfOrderWithPdf(orderId: string): Promise<OrderInvoice | null> {
    return this.em.findOne(OrderInvoice, { orderId }, { populate: ['pdf'] as never });
  }
}
