import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProcessorName } from './payment-processor.js';
import { SavedPaymentMethod } from './saved-payment-method.entity.js';

/**
 * The FROM … LIMIT 1 of the chargeable method of the customer given as its one parameter: the live
 * methods, the default first, else the newest (also a lateral join of the renewal's first charge).
 */
export const CHARGEABLE_METHOD_OF_CUSTOMER = `from billing.payment_methods pm join billing.customers c on c.id = pm.customer_id
  where pm.customer_id = ? and pm.deleted_at is null
  order by (pm.id = c.default_payment_method_id) is true desc, pm.created_at desc limit 1`;

/**
 * Reads of a customer's saved payment methods, on the caller's entity manager (inside its
 * transaction, on its connection: never a second pooled one).
 */
export class SavedPaymentMethodRepository {
  constructor(private readonly em: EntityManager) {}

  /** The customer's default method (`customers.default_payment_method_id`) if it is still saved, else null. */
  async findDefaultOf(customerId: string): Promise<SavedPaymentMethod | null> {
    const rows = await this.em.execute<{ id: string }[]>(
      `select pm.id from billing.customers c join billing.payment_methods pm on pm.id = c.default_payment_method_id
       where c.id = ? and pm.customer_id = c.id and pm.deleted_at is null`,
      [customerId],
    );
    return rows[0] ? this.em.findOne(SavedPaymentMethod, { id: rows[0].id }) : null;
  }

  /** The customer's default, else the newest method still saved, in one statement. */
  async findChargeableOf(customerId: string): Promise<SavedPaymentMethod | null> {
    const [row] = await this.em.execute<Record<string, unknown>[]>(`select pm.* ${CHARGEABLE_METHOD_OF_CUSTOMER}`, [
      customerId,
    ]);
    return row ? this.em.map(SavedPaymentMethod, row) : null;
  }

  /** The customer's row for this processor method, removed or not. */
  findByProcessorId(customerId: string, processorId: string): Promise<SavedPaymentMethod | null> {
    return this.em.findOne(SavedPaymentMethod, { customerId, processorId });
  }

  /** One of the customer's live methods. */
  findLive(customerId: string, id: string): Promise<SavedPaymentMethod | null> {
    return this.em.findOne(SavedPaymentMethod, { id, customerId, deletedAt: null });
  }

  /** The newest live method of the customer other than `exceptId` (the default after `exceptId` is removed). */
  findNewestLiveExcept(customerId: string, exceptId: string): Promise<SavedPaymentMethod | null> {
    return this.em.findOne(
      SavedPaymentMethod,
      { customerId, deletedAt: null, id: { $ne: exceptId } },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
  }

  /** The processor's customer the newest of this customer's methods was saved under, or null. */
  async newestProcessorCustomer(customerId: string, processor: ProcessorName): Promise<string | null> {
    const found = await this.em.findOne(
      SavedPaymentMethod,
      { customerId, processor },
      { orderBy: { createdAt: 'desc' }, fields: ['processorCustomerId'] },
    );
    return found?.processorCustomerId ?? null;
  }

  /**
   * Whether a subscription of the customer still has to be billed (Polar's `requires_payment_method`):
   * not ended, paid, and either going on past its period or paused with a resume date.
   */
  async hasSubscriptionRequiringPaymentMethod(customerId: string): Promise<boolean> {
    const rows = await this.em.execute<{ n: number }[]>(
      `select count(*)::int as n from billing.subscriptions s where s.customer_id = ? and ${REQUIRES_PAYMENT_METHOD}`,
      [customerId],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  /** The names of the products of the customer's subscriptions that require a payment method, sorted. */
  async productsRequiringPaymentMethod(customerId: string): Promise<string[]> {
    const rows = await this.em.execute<{ name: string }[]>(
      `select distinct p.name from billing.subscriptions s join billing.products p on p.id = s.product_id
        where s.customer_id = ? and ${REQUIRES_PAYMENT_METHOD} order by p.name`,
      [customerId],
    );
    return rows.map(r => r.name);
  }
}

/** Polar's `Subscription.requires_payment_method` over `billing.subscriptions s`. */
const REQUIRES_PAYMENT_METHOD = `s.ended_at is null and s.amount > 0
  and ((s.status in ('active', 'trialing', 'past_due') and not s.cancel_at_period_end)
       or (s.status = 'paused' and s.resumes_at is not null))`;
