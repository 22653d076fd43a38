import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../customers/customer.entity.js';
import type { PaymentMethodDetails, ProcessorName } from './payment-processor.js';
import { SavedPaymentMethod } from './saved-payment-method.entity.js';

/**
 * The payment method the next renewal or dunning retry of this customer's subscriptions charges:
 * the customer's default (`customers.default_payment_method_id`), if it is still saved; otherwise
 * null (nothing to charge: the renewal goes to dunning, as Polar's `missing_payment_method`).
 * The recurring engine calls this at charge time, so a default changed in the portal since the last
 * renewal is the one charged (charge it with `{ kind: 'saved', id: method.processorId }` and
 * `customerId: method.processorCustomerId`, `offSession: true`).
 */
export async function defaultPaymentMethodFor(
  em: EntityManager,
  customerId: string,
): Promise<SavedPaymentMethod | null> {
  // em.execute: inside the caller's transaction, on its connection (never a second pooled one).
  const rows = await em.execute<{ id: string }[]>(
    `select pm.id from billing.customers c join billing.payment_methods pm on pm.id = c.default_payment_method_id
       where c.id = ? and pm.customer_id = c.id and pm.deleted_at is null`,
    [customerId],
  );
  return rows[0] ? em.findOne(SavedPaymentMethod, { id: rows[0].id }) : null;
}

/**
 * The FROM … LIMIT 1 of the chargeable method of the customer given as its one parameter: the live
 * methods, the default first, else the newest (also a lateral join of the renewal's first charge).
 */
export const CHARGEABLE_METHOD_OF_CUSTOMER = `from billing.payment_methods pm join billing.customers c on c.id = pm.customer_id
  where pm.customer_id = ? and pm.deleted_at is null
  order by (pm.id = c.default_payment_method_id) is true desc, pm.created_at desc limit 1`;

/**
 * What an off-session charge (a renewal, a dunning retry, a plan change billed now) uses: the
 * customer's default, else the newest method still saved (a customer whose default was never set).
 */
export async function chargeablePaymentMethodFor(
  em: EntityManager,
  customerId: string,
): Promise<SavedPaymentMethod | null> {
  // One statement (it runs on every renewal's charge): the customer's live methods, the default first.
  const [row] = await em.execute<Record<string, unknown>[]>(`select pm.* ${CHARGEABLE_METHOD_OF_CUSTOMER}`, [
    customerId,
  ]);
  return row ? em.map(SavedPaymentMethod, row) : null;
}

/**
 * Keeps a method the processor saved for this customer (a checkout's first charge or trial setup, a
 * card added in the portal): one row per processor method and customer, brought back if it had been
 * removed. Does not touch the default (the caller decides).
 */
export async function keepPaymentMethod(
  em: EntityManager,
  customer: Customer,
  saved: {
    processor: ProcessorName;
    processorCustomerId: string;
    method: PaymentMethodDetails & { id: string };
    now: Date;
  },
): Promise<SavedPaymentMethod> {
  const { method, now } = saved;
  const existing = await em.findOne(SavedPaymentMethod, { customerId: customer.id, processorId: method.id });
  if (existing) {
    if (existing.deletedAt) {
      existing.deletedAt = null;
      existing.modifiedAt = now;
    }
    return existing;
  }
  return em.create(SavedPaymentMethod, {
    organizationId: customer.organizationId,
    customerId: customer.id,
    processor: saved.processor,
    processorId: method.id,
    processorCustomerId: saved.processorCustomerId,
    type: method.type,
    brand: method.brand,
    last4: method.last4,
    expMonth: method.expMonth,
    expYear: method.expYear,
    createdAt: now,
  } as SavedPaymentMethod);
}

/** The processor's customer this customer's methods were saved under (the newest), or null. */
export async function knownProcessorCustomer(
  em: EntityManager,
  customerId: string,
  processor: ProcessorName,
): Promise<string | null> {
  const found = await em.findOne(
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
export async function hasSubscriptionRequiringPaymentMethod(em: EntityManager, customerId: string): Promise<boolean> {
  const rows = await em.execute<{ n: number }[]>(
    `select count(*)::int as n from billing.subscriptions s
       where s.customer_id = ? and s.ended_at is null and s.amount > 0
         and ((s.status in ('active', 'trialing', 'past_due') and not s.cancel_at_period_end)
              or (s.status = 'paused' and s.resumes_at is not null))`,
    [customerId],
  );
  return (rows[0]?.n ?? 0) > 0;
}
