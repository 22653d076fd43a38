import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The `billing.sandbox_clocks` rows: how far ahead of the wall clock an organization's clock runs,
 * and the lease of the advance moving it (`advance_token` until `advancing_until`). Every statement
 * here is one short statement on its own (autocommit): the advance holds no connection between them.
 * Lease times are the database's (`clock_timestamp()`), so every process agrees on when a lease ends,
 * whatever the injected clocks say.
 */
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
 * Takes the organization's advance lease for `leaseMs` under `token` when nobody holds it (or the
 * holder's lease ran out: an advance that crashed), and answers the clock's offset then; null when
 * another advance holds it. A clock never moved gets its row here (offset 0: the wall clock).
 */
export async function claimClockLease(
  em: EntityManager,
  organizationId: string,
  token: string,
  leaseMs: number,
  wall: Date,
): Promise<number | null> {
  const row = await em.execute<{ offset_ms: string }>(
    `insert into billing.sandbox_clocks as c (organization_id, offset_ms, updated_at, advance_token, advancing_until)
     values (?, 0, ?, ?, clock_timestamp() + make_interval(secs => ?::double precision / 1000))
     on conflict (organization_id) do update
       set advance_token = excluded.advance_token, advancing_until = excluded.advancing_until
       where c.advancing_until is null or c.advancing_until <= clock_timestamp()
     returning c.offset_ms`,
    [organizationId, wall, token, leaseMs],
    'get',
  );
  return row ? Number(row.offset_ms) : null;
}

/** Extends the lease `token` holds by `leaseMs` from now; false when it is no longer held (taken over). */
export async function renewClockLease(
  em: EntityManager,
  organizationId: string,
  token: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(
    `update billing.sandbox_clocks set advancing_until = clock_timestamp() + make_interval(secs => ?::double precision / 1000)
     where organization_id = ? and advance_token = ?`,
    [leaseMs, organizationId, token],
    'run',
  );
  return result.affectedRows === 1;
}

/**
 * Sets the clock's offset, only while `token` holds the lease (a fence: an advance whose lease was
 * taken over writes nothing), and gives the lease up with it when `release`. False when not held.
 */
export async function moveLeasedClock(
  em: EntityManager,
  organizationId: string,
  token: string,
  offsetMs: number,
  at: Date,
  release: boolean,
): Promise<boolean> {
  const result = await em.execute<{ affectedRows: number }>(
    `update billing.sandbox_clocks set offset_ms = ?, updated_at = ?${release ? ', advance_token = null, advancing_until = null' : ''}
     where organization_id = ? and advance_token = ?`,
    [offsetMs, at, organizationId, token],
    'run',
  );
  return result.affectedRows === 1;
}

/** Gives up the lease `token` holds, leaving the clock where the advance's last committed step put it. */
export async function releaseClockLease(em: EntityManager, organizationId: string, token: string): Promise<void> {
  await em.execute(
    `update billing.sandbox_clocks set advance_token = null, advancing_until = null
     where organization_id = ? and advance_token = ?`,
    [organizationId, token],
    'run',
  );
}
