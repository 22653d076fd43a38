import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { BenefitGrantEngine } from '../benefits/benefit-grants.engine.js';
import { enqueueJob, type JobHandler } from '../jobs/job-queue.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import { type CustomerEmailOrder, type CustomerEmailSender, queueCustomerEmail } from './customer-email-queue.js';
import { PurchasedBenefitsRepository } from './purchased-benefits.repository.js';

/**
 * `customer-email.confirmation`: the order and subscription confirmations carry what was just bought
 * (docs/email.md#customer-e-mails). As Polar (its `order.confirmation_email` job, enqueued when the order is
 * paid), the `order.paid` of a purchase enqueues this job in its own transaction; the job first brings
 * the holder's grants in line (the benefit engine's reconcile: idempotent, under the holder's lock, so
 * the `benefits.reconcile` job the same event enqueued then finds nothing to do), then reads the license
 * keys and files those grants hold and queues the e-mail, in one transaction: the e-mail exists exactly
 * when the grants it names committed. Key: the event's, as every customer e-mail's.
 */
export const CONFIRMATION_EMAIL_JOB = 'customer-email.confirmation';

type Confirmation = Omit<CustomerEmailOrder, 'at' | 'purchased'> & { at: string };

export async function enqueueConfirmationEmail(em: EntityManager, order: CustomerEmailOrder, runAt: Date) {
  const payload: Confirmation = { ...order, at: order.at.toISOString() };
  await enqueueJob(em, { kind: CONFIRMATION_EMAIL_JOB, key: `${CONFIRMATION_EMAIL_JOB}:${order.key}`, payload, runAt });
}

export function confirmationEmailJob(deps: {
  orm: MikroORM;
  sender: CustomerEmailSender;
  clocks: OrganizationClocks;
  engine: BenefitGrantEngine;
}): JobHandler {
  return async job => {
    const c = job as unknown as Confirmation;
    const orderId = String(c.payload.id);
    const subscriptionId = c.payload.subscription_id ? String(c.payload.subscription_id) : null;
    await deps.orm.em.fork().transactional(async em => {
      const now = async (organizationId: string) => (await deps.clocks.clockIn(em, organizationId)).now();
      // A vendor's retriable error stays on its grant; the `benefits.reconcile` job retries it.
      if (subscriptionId) await deps.engine.reconcileSubscription(em, subscriptionId, now);
      else await deps.engine.reconcileOrder(em, orderId, now, false);
      const purchased = await new PurchasedBenefitsRepository(em).of({
        orderId: subscriptionId ? null : orderId,
        subscriptionId,
      });
      await queueCustomerEmail(em, deps.sender, { ...c, at: new Date(c.at), purchased });
    });
  };
}
