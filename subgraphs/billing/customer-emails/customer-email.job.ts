import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { OrganizationDirectory } from '../../identity/contract.js';
import type { BenefitGrantEngine } from '../benefits/benefit-grants.engine.js';
import { enqueueJob, type JobHandler } from '../jobs/job-queue.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import { type CustomerEmailKind, kindIsOn } from './customer-email-policy.js';
import { type CustomerEmailOrder, type CustomerEmailSender, queueCustomerEmail } from './customer-email-queue.js';
import { PurchasedBenefitsRepository } from './purchased-benefits.repository.js';

/**
 * `customer-email.compose`: one customer e-mail an event called for (docs/email.md#customer-e-mails),
 * enqueued by the recorder in the change's own transaction under the event's key, and written to the
 * outbox here, after that transaction. The organization's name, slug and `customer_email_settings` are
 * identity's (`OrganizationDirectory.profile`: an RPC to another process when distributed), so they are
 * read here, before this job's transaction opens, never while a sale's or a renewal's transaction holds
 * its locks: a slow or absent identity delays an e-mail (the job is retried), never a change. A kind the
 * organization switched off queues nothing.
 *
 * The order and subscription confirmations also carry what was just bought: as Polar (its
 * `order.confirmation_email` job, enqueued when the order is paid), the job first brings the holder's
 * grants in line (the benefit engine's reconcile: idempotent, under the holder's lock, so the
 * `benefits.reconcile` job the same event enqueued then finds nothing to do), then reads the license keys
 * and files those grants hold and queues the e-mail, in one transaction: the e-mail exists exactly when
 * the grants it names committed.
 */
export const CUSTOMER_EMAIL_JOB = 'customer-email.compose';

const CONFIRMATIONS = new Set<CustomerEmailKind>(['order_confirmation', 'subscription_confirmation']);

/** What the recorder keeps of an e-mail to write: everything but what identity and the grants say. */
export type CustomerEmailIntent = Omit<CustomerEmailOrder, 'organization' | 'purchased' | 'card'> & {
  organizationId: string;
};

type Payload = Omit<CustomerEmailIntent, 'at'> & { at: string };

export async function enqueueCustomerEmail(em: EntityManager, intent: CustomerEmailIntent, runAt: Date) {
  const payload: Payload = { ...intent, at: intent.at.toISOString() };
  await enqueueJob(em, { kind: CUSTOMER_EMAIL_JOB, key: `${CUSTOMER_EMAIL_JOB}:${intent.key}`, payload, runAt });
}

export function customerEmailJob(deps: {
  orm: MikroORM;
  sender: CustomerEmailSender;
  clocks: OrganizationClocks;
  engine: BenefitGrantEngine;
  directory: OrganizationDirectory;
}): JobHandler {
  return async raw => {
    const intent = raw as unknown as Payload;
    const organization = await deps.directory.profile(intent.organizationId);
    if (!organization || !kindIsOn(organization.customerEmailSettings, intent.kind)) return;
    await deps.orm.em.fork().transactional(async em => {
      const purchased = CONFIRMATIONS.has(intent.kind) ? await purchasedBy(em, deps, intent.payload) : undefined;
      await queueCustomerEmail(em, deps.sender, { ...intent, organization, at: new Date(intent.at), purchased });
    });
  };
}

/** The grants of the order (or of its subscription) brought in line, then what they hold. */
async function purchasedBy(
  em: EntityManager,
  deps: { clocks: OrganizationClocks; engine: BenefitGrantEngine },
  order: Record<string, any>,
) {
  const orderId = String(order.id);
  const subscriptionId = order.subscription_id ? String(order.subscription_id) : null;
  const now = async (organizationId: string) => (await deps.clocks.clockIn(em, organizationId)).now();
  // A vendor's retriable error stays on its grant; the `benefits.reconcile` job retries it.
  if (subscriptionId) await deps.engine.reconcileSubscription(em, subscriptionId, now);
  else await deps.engine.reconcileOrder(em, orderId, now, false);
  return new PurchasedBenefitsRepository(em).of({ orderId: subscriptionId ? null : orderId, subscriptionId });
}
