import type { EntityManager } from '@mikro-orm/postgresql';
import { METER_CREDITED, METER_RESET, type MeterUnits, meterUnits } from '../customer-meters/customer-meter.units.js';
import type { Meter } from '../meters/meter.entity.js';
import { MeterRepository } from '../meters/meter.repository.js';
import { sql } from '../shared/sql.queries.js';
import { recordSystemEvent } from '../system-events/system-events.js';

/**
 * Meter credits and resets (docs/usage-billing.md#credits), as Polar records them: `meter.credited`
 * `{meter_id, units, rollover}` and `meter.reset` `{meter_id}` system events in the usage stream, in the unit of
 * work of the change (a grant, a cycle, a revoke, a renewal). The customer's meter row is made with the credit.
 */
export async function creditMeter(
  em: EntityManager,
  c: { organizationId: string; customerId: string; meterId: string; units: number; rollover: boolean; at: Date },
): Promise<void> {
  await recordSystemEvent(em, {
    organizationId: c.organizationId,
    customerId: c.customerId,
    name: METER_CREDITED,
    metadata: { meter_id: c.meterId, units: c.units, rollover: c.rollover },
    at: c.at,
  });
  await sql(
    em,
    `insert into billing.customer_meters (id, organization_id, customer_id, meter_id, created_at)
     values (gen_random_uuid(), ?, ?, ?, ?)
     on conflict (customer_id, meter_id) do update set modified_at = excluded.created_at`,
    [c.organizationId, c.customerId, c.meterId, c.at],
  );
}

/**
 * Polar's meter reset: the units that roll over (what is left of the rollover credits, never more than them),
 * `meter.reset`, then those units credited again as rollover.
 */
export async function resetMeter(
  em: EntityManager,
  r: { organizationId: string; customerId: string; meterId: string; at: Date },
): Promise<void> {
  const meter = await new MeterRepository(em).findOfOrganization(r.meterId, r.organizationId);
  if (!meter) return;
  await em.flush();
  const units = await meterUnitsWithRollover(em, r.organizationId, r.customerId, meter);
  await recordSystemEvent(em, {
    organizationId: r.organizationId,
    customerId: r.customerId,
    name: METER_RESET,
    metadata: { meter_id: r.meterId },
    at: r.at,
  });
  if (units.rollover > 0)
    await creditMeter(em, { ...r, units: units.rollover, rollover: true, at: new Date(r.at.getTime() + 1) });
}

/** When the meter was last reset for the customer (null: never). */
export async function lastResetAt(
  em: EntityManager,
  organizationId: string,
  customerId: string,
  meterId: string,
): Promise<Date | null> {
  await em.flush();
  const [row] = await sql<{ at: Date | string | null }>(
    em,
    `select max(ingested_at) as at from billing.usage_events where organization_id = ? and customer_id = ?
       and source = 'system' and name = '${METER_RESET}' and metadata ->> 'meter_id' = ?`,
    [organizationId, customerId, meterId],
  );
  return row?.at ? new Date(row.at) : null;
}

/** Polar's `get_rollover_units`: max(0, min(⌊balance⌋, the rollover credits' running sum)). */
async function meterUnitsWithRollover(
  em: EntityManager,
  organizationId: string,
  customerId: string,
  meter: Meter,
): Promise<MeterUnits & { rollover: number }> {
  const units = await meterUnits(em, organizationId, customerId, meter);
  const [row] = await sql<{ rollover: string[] | null }>(
    em,
    `select array_agg(e.metadata ->> 'units' order by e.timestamp, e.id) as rollover from billing.usage_events e
     where e.organization_id = ? and e.customer_id = ? and e.source = 'system' and e.name = '${METER_CREDITED}'
       and e.metadata ->> 'meter_id' = ? and (e.metadata ->> 'rollover')::boolean
       and e.timestamp > coalesce((select max(r.timestamp) from billing.usage_events r where r.organization_id = ?
         and r.customer_id = ? and r.source = 'system' and r.name = '${METER_RESET}' and r.metadata ->> 'meter_id' = ?),
         '-infinity'::timestamptz)`,
    [organizationId, customerId, meter.id, organizationId, customerId, meter.id],
  );
  let rolloverSum = 0;
  for (const u of row?.rollover ?? []) rolloverSum = Math.max(0, rolloverSum + Number(u));
  const balance = Math.floor(Number(units.balance));
  return { ...units, rollover: Math.max(0, Math.min(balance, rolloverSum)) };
}
