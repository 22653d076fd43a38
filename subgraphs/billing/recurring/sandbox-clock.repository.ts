import type { EntityManager } from '@mikro-orm/postgresql';

/** The `billing.sandbox_clocks` rows: how far ahead of the wall clock an organization's clock runs. */
export async function readClockOffset(em: EntityManager, organizationId: string): Promise<number> {
  const row = await em.execute<{ offset_ms: string }>(
    'select offset_ms from billing.sandbox_clocks where organization_id = ?',
    [organizationId],
    'get',
  );
  return row ? Number(row.offset_ms) : 0;
}

export async function writeClockOffset(
  em: EntityManager,
  organizationId: string,
  offsetMs: number,
  at: Date,
): Promise<void> {
  await em.execute(
    `insert into billing.sandbox_clocks (organization_id, offset_ms, updated_at) values (?, ?, ?)
     on conflict (organization_id) do update set offset_ms = excluded.offset_ms, updated_at = excluded.updated_at`,
    [organizationId, offsetMs, at],
    'run',
  );
}

/**
 * Serialises the advances of one organization's clock: a transaction-scoped advisory lock, held by
 * the advance's own transaction until it answers (a second advance waits, then starts from where the
 * first one left the clock).
 */
export async function lockClock(em: EntityManager, organizationId: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error('lockClock must run inside a transaction');
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`sandbox_clock:${organizationId}`], 'get');
}
