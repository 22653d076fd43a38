import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobRunner } from '../jobs/job-queue.js';
import type { DueWork, DueWorkRunner } from '../time/due-work.js';
import type { BenefitGrantEngine, GracePeriodSource } from './benefit-grants.engine.js';
import { BenefitGrantRepository } from './benefit-grant.repository.js';
import { BENEFITS_RECONCILE_JOB } from './benefit-grants.job.js';

const DAY_MS = 86_400_000;

/**
 * Grants inside a move of the sandbox clock (time/due-work.ts). Work that ran earlier in the same
 * advance (a renewal ending a subscription, a dunning step) recorded its events, and the trigger queued
 * their reconcile jobs: they are reported as overdue and run here, at the clock's instant, so the
 * advance answers with grants already in line. A past-due subscription's grace period ends at
 * `past_due_at` + the organization's grace days: that instant is reported and its grants revoked then.
 */
export class BenefitDueWork implements DueWorkRunner {
  readonly name = 'benefits';

  constructor(
    private readonly orm: MikroORM,
    private readonly engine: BenefitGrantEngine,
    private readonly jobs: JobRunner,
    private readonly gracePeriodDays: GracePeriodSource = async () => 0,
  ) {}

  async nextDueAt(organizationId: string, upTo: Date): Promise<Date | null> {
    const grants = new BenefitGrantRepository(this.orm.em.fork());
    const pending = await grants.pendingReconcileJobKeys(BENEFITS_RECONCILE_JOB, organizationId, { first: true });
    if (pending.length) return new Date(0);
    const holders = await grants.pastDueHolders(organizationId, { first: true });
    if (!holders.length) return null;
    const due = new Date(
      new Date(holders[0].past_due_at).getTime() + (await this.gracePeriodDays(organizationId)) * DAY_MS,
    );
    return due.getTime() <= upTo.getTime() ? due : null;
  }

  async runDue(work: DueWork): Promise<void> {
    const grants = new BenefitGrantRepository(this.orm.em.fork());
    const pending = await grants.pendingReconcileJobKeys(BENEFITS_RECONCILE_JOB, work.organizationId);
    for (const { key } of pending) await this.jobs.runNow(key);
    const days = await this.gracePeriodDays(work.organizationId);
    const holders = await grants.pastDueHolders(work.organizationId);
    for (const holder of holders) {
      if (new Date(holder.past_due_at).getTime() + days * DAY_MS > work.at.getTime()) break;
      await this.orm.em
        .fork()
        .transactional(tx => this.engine.reconcileSubscription(tx, holder.id, async () => work.at));
    }
  }
}
