import type { EntityManager } from '@mikro-orm/postgresql';

/** The rollups' backfill statements (docs/metrics.md#rollups): which organization waits, and its backfill. */
export class MetricRollupQueries {
  constructor(private readonly em: EntityManager) {}

  /** An organization whose earlier rows are not in the rollups yet, or null. */
  async nextWaiting(): Promise<string | null> {
    const [next] = await this.em.execute<{ organization_id: string }[]>(
      'select organization_id from billing.metric_rollup_state where not ready limit 1',
    );
    return next?.organization_id ?? null;
  }

  /**
   * Adds the organization's rows to the rollups in one transaction (`billing.metric_rollup_backfill`, under its
   * exclusive advisory lock); a no-op when another worker did it first.
   */
  async backfill(organizationId: string): Promise<void> {
    await this.em.transactional(async tx => {
      // One organization's whole history in one statement: no request's timeout applies to it.
      await tx.execute('set local statement_timeout = 0');
      await tx.execute('select billing.metric_rollup_backfill(?)', [organizationId]);
    });
  }
}
