import type { MikroORM } from '@mikro-orm/postgresql';
import type { JobRunner } from '../jobs/job-queue.js';
import type { DueWork, DueWorkRunner } from '../time/due-work.js';
import type { BenefitGrantEngine, GracePeriodSource } from './benefit-grants.engine.js';
import { BENEFITS_RECONCILE_JOB } from './benefit-grants.job.js';

const DAY_MS = 86_400_000;

/** Reconcile jobs of one organization not yet run (grace-period rechecks aside: the scan below covers them). */
const PENDING_JOBS = `select j.idempotency_key as key from billing.jobs j
  where j.kind = ? and j.status = 'pending' and j.attempts = 0 and coalesce(j.payload ->> 'eventType', '') <> 'grace_period_end'
    and ((j.payload ->> 'source' = 'subscription' and exists (select 1 from billing.subscriptions s where s.id = (j.payload ->> 'id')::uuid and s.organization_id = ?))
      or (j.payload ->> 'source' = 'order' and exists (select 1 from billing.orders o where o.id = (j.payload ->> 'id')::uuid and o.organization_id = ?)))
  order by j.created_at`;

/** Past-due subscriptions of the organization that still hold granted benefits. */
const PAST_DUE_HOLDERS = `select s.id, s.past_due_at from billing.subscriptions s
  where s.organization_id = ? and s.status = 'past_due' and s.past_due_at is not null
    and exists (select 1 from billing.benefit_grants g where g.subscription_id = s.id and g.granted_at is not null and g.revoked_at is null)
  order by s.past_due_at`;

/**
 * Grants inside a move of the sandbox clock (recurring/due-work.ts). Work that ran earlier in the same
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
    const em = this.orm.em.fork();
    const pending = await em.execute<{ key: string }[]>(`${PENDING_JOBS} limit 1`, [
      BENEFITS_RECONCILE_JOB,
      organizationId,
      organizationId,
    ]);
    if (pending.length) return new Date(0);
    const holders = await em.execute<{ id: string; past_due_at: Date }[]>(`${PAST_DUE_HOLDERS} limit 1`, [
      organizationId,
    ]);
    if (!holders.length) return null;
    const due = new Date(
      new Date(holders[0].past_due_at).getTime() + (await this.gracePeriodDays(organizationId)) * DAY_MS,
    );
    return due.getTime() <= upTo.getTime() ? due : null;
  }

  async runDue(work: DueWork): Promise<void> {
    const em = this.orm.em.fork();
    const pending = await em.execute<{ key: string }[]>(PENDING_JOBS, [
      BENEFITS_RECONCILE_JOB,
      work.organizationId,
      work.organizationId,
    ]);
    for (const { key } of pending) await this.jobs.runNow(key);
    const days = await this.gracePeriodDays(work.organizationId);
    const holders = await em.execute<{ id: string; past_due_at: Date }[]>(PAST_DUE_HOLDERS, [work.organizationId]);
    for (const holder of holders) {
      if (new Date(holder.past_due_at).getTime() + days * DAY_MS > work.at.getTime()) break;
      await this.orm.em
        .fork()
        .transactional(tx => this.engine.reconcileSubscription(tx, holder.id, async () => work.at));
    }
  }
}
