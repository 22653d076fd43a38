import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../customers/customer.entity.js';
import type { PaymentMethodDetails, ProcessorName } from './payment-processor.js';
import { SavedPaymentMethod } from './saved-payment-method.entity.js';
import { SavedPaymentMethodRepository } from './saved-payment-method.repository.js';

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
  return new SavedPaymentMethodRepository(em).findDefaultOf(customerId);
}

/**
 * What an off-session charge (a renewal, a dunning retry, a plan change billed now) uses: the
 * customer's default, else the newest method still saved (a customer whose default was never set).
 */
export async function chargeablePaymentMethodFor(
  em: EntityManager,
  customerId: string,
): Promise<SavedPaymentMethod | null> {
  // One statement (it runs on every renewal's charge): the customer's live methods, the default first.
  return new SavedPaymentMethodRepository(em).findChargeableOf(customerId);
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
  const existing = await new SavedPaymentMethodRepository(em).findByProcessorId(customer.id, method.id);
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
  return new SavedPaymentMethodRepository(em).newestProcessorCustomer(customerId, processor);
}

/**
 * Whether a subscription of the customer still has to be billed (Polar's `requires_payment_method`):
 * not ended, paid, and either going on past its period or paused with a resume date.
 */
export async function hasSubscriptionRequiringPaymentMethod(em: EntityManager, customerId: string): Promise<boolean> {
  return new SavedPaymentMethodRepository(em).hasSubscriptionRequiringPaymentMethod(customerId);
}
