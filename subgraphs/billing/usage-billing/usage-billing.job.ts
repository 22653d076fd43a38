import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { type DueWork, inBatches, type SweepableDueWorkRunner } from '../time/due-work.js';
import { BillingEntryQueries } from './billing-entries.queries.js';

/** Events one step (one short transaction) bills. */
export const USAGE_BILLING_BATCH = 1000;

/**
 * The billing job (docs/usage-billing.md#billing-entries): turns each organization's usage events into billing
 * entries, in ingestion order, in bounded transactions. Durable without a queue row per event: the cursor and the
 * entries live in the database, a crashed step rolls back and the next pass starts from the cursor, and the
 * unique (event, subscription, price) makes a re-run harmless. Every ingest statement notifies `billing.usage`
 * (wakes the production sweep); a sandbox clock's advance runs it at the clock's instants; and a renewal runs it
 * up to its cutoff first, in its own transaction, so a period's order never misses an event ingested before its
 * end, whatever the job's lag.
 */
export class UsageBillingJob implements SweepableDueWorkRunner {
  readonly name = 'usage-billing';
  readonly topic = 'billing.usage';

  constructor(
    private readonly orm: MikroORM,
    private readonly batch = USAGE_BILLING_BATCH,
  ) {}

  nextDueAt(organizationId: string, upTo: Date): Promise<Date | null> {
    return new BillingEntryQueries(this.orm.em.fork()).nextDueAt(organizationId, upTo);
  }

  async nextDueOverall(): Promise<Date | null> {
    const due = await new BillingEntryQueries(this.orm.em.fork()).organizationsDue(new Date(8.64e15), 1);
    return due.length ? new Date(0) : null;
  }

  organizationsDue(now: Date, limit: number): Promise<string[]> {
    return new BillingEntryQueries(this.orm.em.fork()).organizationsDue(now, limit);
  }

  async runDue(work: DueWork): Promise<void> {
    await billUsage(this.orm.em.fork(), work.organizationId, work.at, this.batch);
  }
}

/** Bills every event of the organization ingested at or before `upTo`, one transaction per batch. */
export async function billUsage(em: EntityManager, organizationId: string, upTo: Date, batch = USAGE_BILLING_BATCH) {
  let billed = 0;
  await inBatches(batch, async limit => {
    const step = await em
      .fork()
      .transactional(tx => new BillingEntryQueries(tx).step(organizationId, upTo, limit, upTo));
    billed += step.billed;
    return step.seen;
  });
  return billed;
}

/** The same inside the caller's transaction (a renewal): its entries commit with its order. */
export async function billUsageIn(em: EntityManager, organizationId: string, upTo: Date): Promise<void> {
  const queries = new BillingEntryQueries(em);
  while ((await queries.step(organizationId, upTo, USAGE_BILLING_BATCH, upTo)).seen >= USAGE_BILLING_BATCH);
}
