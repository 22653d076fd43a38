import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { enqueueJob, type JobHandler } from '../jobs/job-queue.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import type { BenefitGrantEngine } from './benefit-grants.engine.js';

/**
 * `benefits.reconcile`: enqueued by the trigger on `billing.events` (Migration20261124150000_benefits)
 * for every subscription event, every `order.paid` of a one-time order and every refund with
 * `revoke_benefits`, in the transaction that records the event; key
 * `benefits.reconcile:<subscription|order>:<id>:<event id>`. The handler reconciles the holder's grants
 * with its state now (benefit-grants.engine.ts) in one transaction, grants' events included. A
 * past-due subscription inside its grace period schedules one more run for the end of it. Payload
 * `{source: 'grant', id}` (the customer portal's PATCH of a grant) refreshes that one grant.
 */
export const BENEFITS_RECONCILE_JOB = 'benefits.reconcile';

export function benefitReconcileJob(deps: {
  orm: MikroORM;
  /** The job worker's clock: a recheck is scheduled on it, the organization's clock may run ahead. */
  clock: Clock;
  clocks: OrganizationClocks;
  engine: BenefitGrantEngine;
}): JobHandler {
  return async payload => {
    const id = String(payload.id);
    const retry = await deps.orm.em.fork().transactional(async em => {
      const now = async (organizationId: string) => (await deps.clocks.clockIn(em, organizationId)).now();
      if (payload.source === 'order') return deps.engine.reconcileOrder(em, id, now, payload.revoke === true);
      if (payload.source === 'grant') return deps.engine.refreshGrant(em, id, now);
      const { recheckAt, at, retry } = await deps.engine.reconcileSubscription(em, id, now, {
        cycled: payload.eventType === 'subscription.cycled',
      });
      if (recheckAt && at)
        await enqueueJob(em, {
          kind: BENEFITS_RECONCILE_JOB,
          key: `${BENEFITS_RECONCILE_JOB}:subscription:${id}:grace:${recheckAt.toISOString()}`,
          payload: { source: 'subscription', id, eventType: 'grace_period_end' },
          runAt: new Date(deps.clock.now().getTime() + (recheckAt.getTime() - at.getTime())),
        });
      return retry;
    });
    // Committed: the grants carry the vendor's error. Failing now makes the queue run the job again
    // after its backoff, and the reconcile then asks the vendor again.
    if (retry) throw new Error(`benefit integration will be retried: ${retry}`);
  };
}

/** The job a customer's change of a grant (portal PATCH) enqueues with it: grant or move it (engine `refreshGrant`). */
export async function enqueueGrantRefresh(em: EntityManager, grantId: string, runAt: Date): Promise<string> {
  const key = `${BENEFITS_RECONCILE_JOB}:grant:${grantId}:${randomUUID()}`;
  await enqueueJob(em, { kind: BENEFITS_RECONCILE_JOB, key, payload: { source: 'grant', id: grantId }, runAt });
  return key;
}
