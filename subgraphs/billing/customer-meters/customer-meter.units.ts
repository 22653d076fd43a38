import type { EntityManager } from '@mikro-orm/postgresql';
import { nonNegativeRunningSum, subtractDecimal } from '../../../kit/money/metered.js';
import { type Aggregation, aggregationSql, eventColumns, type Filter, meterWhereSql } from '../meters/meter-sql.js';
import { sql } from '../shared/sql.queries.js';

/** The system events of meter credits and resets (docs/usage-billing.md#credits). */
export const METER_CREDITED = 'meter.credited';
export const METER_RESET = 'meter.reset';

export interface MeterUnits {
  consumed: string;
  credited: string;
  /** credited − consumed: negative once usage passes the credits. */
  balance: string;
}

/**
 * A customer's units of a meter since its last `meter.reset` (docs/usage-billing.md#customer-meters), as Polar:
 * consumed is the meter's aggregate over the customer's events after the reset, credited the non-negative running
 * sum of the `meter.credited` units after it, balance their difference. Two statements, each one indexed range of
 * the customer's events.
 */
export async function meterUnits(
  em: EntityManager,
  organizationId: string,
  customerId: string,
  meter: { id: string; filter: Filter; aggregation: Aggregation },
): Promise<MeterUnits> {
  const e = eventColumns('e');
  const where = meterWhereSql(meter, e);
  const { value } = aggregationSql(meter.aggregation, e);
  const reset = `coalesce((select max(r.timestamp) from billing.usage_events r where r.organization_id = ? and r.customer_id = ?
      and r.source = 'system' and r.name = '${METER_RESET}' and r.metadata ->> 'meter_id' = ?), '-infinity'::timestamptz)`;
  const [row] = await sql<{ consumed: string | null; credits: string[] | null }>(
    em,
    `with since as (select ${reset} as at)
     select (select coalesce(${value.sql}, 0)::numeric::text from billing.usage_events e
               where e.organization_id = ? and e.customer_id = ? and e.source = 'user'
                 and e.timestamp > (select at from since) and ${where.sql}) as consumed,
            (select array_agg(e.metadata ->> 'units' order by e.timestamp, e.id) from billing.usage_events e
               where e.organization_id = ? and e.customer_id = ? and e.source = 'system' and e.name = '${METER_CREDITED}'
                 and e.metadata ->> 'meter_id' = ? and e.timestamp > (select at from since)) as credits`,
    [
      organizationId,
      customerId,
      meter.id,
      ...value.values,
      organizationId,
      customerId,
      ...where.values,
      organizationId,
      customerId,
      meter.id,
    ],
  );
  const consumed = row?.consumed ?? '0';
  const credited = nonNegativeRunningSum(row?.credits ?? []);
  return { consumed, credited, balance: subtractDecimal(credited, consumed) };
}
