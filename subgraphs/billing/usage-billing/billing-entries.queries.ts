import type { EntityManager } from '@mikro-orm/postgresql';
import { type Aggregation, aggregationSql, eventColumns, type Filter, meterWhereSql } from '../meters/meter-sql.js';
import { METER_CREDITED } from '../customer-meters/customer-meter.units.js';
import { sql } from '../shared/sql.queries.js';

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

interface MeterInUse {
  meter_id: string;
  filter: Filter;
  aggregation: Aggregation;
}

/** What one step of the billing job did. */
export interface BillingStep {
  /** Events looked at (the step's batch). */
  seen: number;
  /** Entries written. */
  billed: number;
}

/**
 * The billing job's statements (docs/usage-billing.md#billing-entries). An organization's events are looked at in
 * ingestion order from its cursor; each event a metered price of one of the customer's subscriptions counts
 * becomes one entry of that (subscription, price), stamped with the event's ingestion time. The subscription must
 * have been billable when the event was ingested: started, past its trial, not ended. Exactly once is the
 * database's: unique (event, subscription, price) and ON CONFLICT DO NOTHING, so a step re-run after a crash (its
 * cursor not moved) writes nothing twice.
 */
export class BillingEntryQueries {
  constructor(private readonly em: EntityManager) {}

  /**
   * One step, inside the caller's transaction: locks the organization's cursor (concurrent jobs take turns),
   * bills up to `limit` events ingested at or before `upTo`, and moves the cursor past them.
   */
  async step(organizationId: string, upTo: Date, limit: number, now: Date): Promise<BillingStep> {
    await sql(
      this.em,
      `insert into billing.usage_billing_cursors (organization_id, ingested_at, event_id, updated_at)
       values (?, '-infinity', ?, ?) on conflict do nothing`,
      [organizationId, ZERO_UUID, now],
    );
    const [cursor] = await sql<{ ingested_at: Date | string; event_id: string }>(
      this.em,
      `select ingested_at, event_id from billing.usage_billing_cursors where organization_id = ? for update`,
      [organizationId],
    );
    const meters = await this.metersInUse(organizationId);
    const counted = meters.map(m => {
      const where = meterWhereSql(m, eventColumns('e'));
      return {
        sql: `(pp.meter_id = ?::uuid and e.source = 'user' and ${where.sql})`,
        values: [m.meter_id, ...where.values],
      };
    });
    // A credit of the meter for this customer is billed as an entry too: it is what the usage line subtracts.
    const credit = `(e.source = 'system' and e.name = '${METER_CREDITED}' and e.metadata ->> 'meter_id' = pp.meter_id::text)`;
    const matches = counted.length ? `(${[...counted.map(c => c.sql), credit].join(' or ')})` : 'false';
    const [row] = await sql<{ seen: number; billed: number; last_at: Date | string | null; last_id: string | null }>(
      this.em,
      `with batch as (
         select e.* from billing.usage_events e
         where e.organization_id = ? and (e.ingested_at, e.id) > (?::timestamptz, ?::uuid) and e.ingested_at <= ?
         order by e.ingested_at, e.id limit ?),
       written as (
         insert into billing.billing_entries (id, organization_id, meter_id, event_id, created_at, customer_id,
           subscription_id, product_price_id, ingested_at)
         select gen_random_uuid(), e.organization_id, pp.meter_id, e.id, ?, s.customer_id, s.id, pp.id, e.ingested_at
         from batch e
         join billing.customers c on c.organization_id = e.organization_id
           and (c.id = e.customer_id or (e.customer_id is null and c.external_id = e.external_customer_id))
         join billing.subscriptions s on s.organization_id = e.organization_id and s.customer_id = c.id
         join billing.product_prices pp on pp.id = any(s.price_ids::uuid[]) and pp.amount_type = 'metered_unit'
         where s.status not in ('incomplete', 'incomplete_expired')
           and (s.ended_at is null or e.ingested_at < s.ended_at)
           -- Usage counts once the subscription bills (started, past its trial); a credit counts whenever it came
           -- (a grant at the sale lands in the instant before the subscription's own stamp).
           and (e.source = 'system' or (s.started_at <= e.ingested_at
             and (s.trial_end is null or s.trial_end <= e.ingested_at)))
           and ${matches}
         on conflict do nothing returning 1),
       last as (select ingested_at, id from batch order by ingested_at desc, id desc limit 1),
       moved as (
         update billing.usage_billing_cursors set ingested_at = last.ingested_at, event_id = last.id, updated_at = ?
         from last where organization_id = ? returning 1)
       select (select count(*) from batch)::int as seen, (select count(*) from written)::int as billed,
         (select count(*) from moved)::int as moved, null as last_at, null as last_id`,
      [
        organizationId,
        cursor.ingested_at,
        cursor.event_id,
        upTo,
        limit,
        now,
        ...counted.flatMap(c => c.values),
        now,
        organizationId,
      ],
    );
    if (row.seen > 0) await this.pairCustomerMeters(organizationId, cursor, upTo, limit, now);
    return { seen: row.seen, billed: row.billed };
  }

  /**
   * The step's events name the customer meters that exist (docs/usage-billing.md#customer-meters): each
   * (customer, meter) with an event the meter counts, or a credit of it, gets its row, and its `modified_at`.
   */
  private async pairCustomerMeters(
    organizationId: string,
    cursor: { ingested_at: Date | string; event_id: string },
    upTo: Date,
    limit: number,
    now: Date,
  ): Promise<void> {
    const meters = await sql<MeterInUse>(
      this.em,
      `select id as meter_id, filter, aggregation from billing.meters where organization_id = ? and archived_at is null`,
      [organizationId],
    );
    if (!meters.length) return;
    const counted = meters.map(m => {
      const where = meterWhereSql(m, eventColumns('e'));
      return { sql: `(m.id = ?::uuid and e.source = 'user' and ${where.sql})`, values: [m.meter_id, ...where.values] };
    });
    const credit = `(e.source = 'system' and e.name = '${METER_CREDITED}' and e.metadata ->> 'meter_id' = m.id::text)`;
    await sql(
      this.em,
      `with batch as (
         select e.* from billing.usage_events e
         where e.organization_id = ? and (e.ingested_at, e.id) > (?::timestamptz, ?::uuid) and e.ingested_at <= ?
         order by e.ingested_at, e.id limit ?)
       insert into billing.customer_meters (id, organization_id, customer_id, meter_id, created_at)
       select distinct on (c.id, m.id) gen_random_uuid(), e.organization_id, c.id, m.id, ?
       from batch e
       join billing.customers c on c.organization_id = e.organization_id
         and (c.id = e.customer_id or (e.customer_id is null and c.external_id = e.external_customer_id))
       join billing.meters m on m.organization_id = e.organization_id and m.archived_at is null
       where ${[...counted.map(c => c.sql), credit].join(' or ')}
       on conflict (customer_id, meter_id) do update set modified_at = excluded.created_at`,
      [organizationId, cursor.ingested_at, cursor.event_id, upTo, limit, now, ...counted.flatMap(c => c.values)],
    );
  }

  /** The meters the organization's live subscriptions bill through a metered price. */
  private metersInUse(organizationId: string): Promise<MeterInUse[]> {
    return sql<MeterInUse>(
      this.em,
      `select distinct on (m.id) m.id as meter_id, m.filter, m.aggregation
       from billing.subscriptions s
       join billing.product_prices pp on pp.id = any(s.price_ids::uuid[]) and pp.amount_type = 'metered_unit'
       join billing.meters m on m.id = pp.meter_id and m.organization_id = s.organization_id
       where s.organization_id = ? and s.status not in ('incomplete', 'incomplete_expired')`,
      [organizationId],
    );
  }

  /** The earliest ingestion instant of an event past the cursor, at or before `upTo` (null: nothing to bill). */
  async nextDueAt(organizationId: string, upTo: Date): Promise<Date | null> {
    const [row] = await sql<{ at: Date | string | null }>(
      this.em,
      `select min(e.ingested_at) as at from billing.usage_events e
       left join billing.usage_billing_cursors c on c.organization_id = e.organization_id
       where e.organization_id = ? and e.ingested_at <= ?
         and (e.ingested_at, e.id) > (coalesce(c.ingested_at, '-infinity'), coalesce(c.event_id, ?::uuid))`,
      [organizationId, upTo, ZERO_UUID],
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Organizations with a live meter and events past their cursor (the wall clock's sweep). */
  async organizationsDue(now: Date, limit: number): Promise<string[]> {
    const rows = await sql<{ organization_id: string }>(
      this.em,
      `select o.organization_id from (
         select distinct organization_id from billing.meters where archived_at is null) o
       left join billing.usage_billing_cursors c on c.organization_id = o.organization_id
       where exists (select 1 from billing.usage_events e where e.organization_id = o.organization_id
         and e.ingested_at <= ? and (e.ingested_at, e.id) > (coalesce(c.ingested_at, '-infinity'), coalesce(c.event_id, ?::uuid)))
       limit ?`,
      [now, ZERO_UUID, limit],
    );
    return rows.map(r => r.organization_id);
  }

  /**
   * A subscription's pending usage of one meter up to `cutoff` (exclusive): the meter's aggregate over the events
   * of its entries not yet on an order, and the credits (the `units` of its `meter.credited` entries, in order).
   */
  async pendingUsage(
    subscriptionId: string,
    meter: { id: string; aggregation: Aggregation },
    cutoff: Date,
  ): Promise<{ consumed: string; credits: string[]; firstAt: Date | null }> {
    const { value } = aggregationSql(meter.aggregation, eventColumns('e'));
    const [row] = await sql<{ consumed: string | null; credits: string[] | null; first_at: Date | string | null }>(
      this.em,
      `select (select coalesce(${value.sql}, 0)::numeric::text from billing.billing_entries be
           join billing.usage_events e on e.id = be.event_id and e.organization_id = be.organization_id
           where be.subscription_id = ? and be.meter_id = ? and be.order_id is null and be.ingested_at < ?
             and e.source = 'user') as consumed,
         (select array_agg(e.metadata ->> 'units' order by e.ingested_at, e.id) from billing.billing_entries be
           join billing.usage_events e on e.id = be.event_id and e.organization_id = be.organization_id
           where be.subscription_id = ? and be.meter_id = ? and be.order_id is null and be.ingested_at < ?
             and e.source = 'system') as credits,
         (select min(be.ingested_at) from billing.billing_entries be
           where be.subscription_id = ? and be.meter_id = ? and be.order_id is null and be.ingested_at < ?) as first_at`,
      [
        ...value.values,
        subscriptionId,
        meter.id,
        cutoff,
        subscriptionId,
        meter.id,
        cutoff,
        subscriptionId,
        meter.id,
        cutoff,
      ],
    );
    return {
      consumed: row?.consumed ?? '0',
      credits: row?.credits ?? [],
      firstAt: row?.first_at ? new Date(row.first_at) : null,
    };
  }

  /** Puts a subscription's pending entries of `meterId` before `cutoff` on `orderId`: they are billed. */
  async markBilled(subscriptionId: string, meterId: string, cutoff: Date, orderId: string): Promise<void> {
    await sql(
      this.em,
      `update billing.billing_entries set order_id = ?
       where subscription_id = ? and meter_id = ? and order_id is null and ingested_at < ?`,
      [orderId, subscriptionId, meterId, cutoff],
    );
  }
}
