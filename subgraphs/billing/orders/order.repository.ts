import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { Order } from './order.entity.js';

/** Orders as changes lock them, and the organization's invoice-number counter. */
export class OrderRepository {
  constructor(private readonly em: EntityManager) {}

  /** The order, or null, re-read and row-locked until the transaction ends. */
  lockFresh(id: string): Promise<Order | null> {
    return this.em.findOne(Order, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  /** The organization an order belongs to, by primary key (for a signed link, whose signature is the credential). */
  async organizationOf(id: string): Promise<string | null> {
    const order = await this.em.findOne(Order, { id }, { fields: ['organizationId'] });
    return order?.organizationId ?? null;
  }

  /**
   * The organization's next invoice number, taken from its counter row (created at 1, then
   * incremented) in the caller's transaction: the row stays locked until it ends.
   */
  async takeInvoiceNumber(organizationId: string): Promise<number> {
    const [row] = await this.em.execute<{ last_number: number }[]>(
      `insert into billing.invoice_number_sequences (organization_id, last_number) values (?, 1)
     on conflict (organization_id) do update set last_number = billing.invoice_number_sequences.last_number + 1
     returning last_number`,
      [organizationId],
    );
    return row.last_number;
  }
}
