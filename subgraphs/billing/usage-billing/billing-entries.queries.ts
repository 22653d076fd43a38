import type { EntityManager } from '@mikro-orm/postgresql';
import { type Aggregation, aggregationSql, eventColumns, type Filter, meterWhereSql } from '../meters/meter-sql.js';
import { METER_CREDITED } from '../customer-meters/customer-meter.units.js';
import { sql } from '../shared/sql.queries.js';

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

interface MeterInUse {
  meter_id: string;
  filter: Filter;
  aggregation: Aggregation;
  /** Not archived: its customers are paired with it. */
  live: boolean;
  /** A metered price of one of the organization's subscriptions bills it. */
  billed: boolean;
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
   * One step, inside the caller's transaction: locks the organization's cursor (concurrent jobs take turns), then
   * ONE statement reads the step's events once and, from them, writes the entries, pairs customers with meters,
   * moves customers' `first_user_event_at` earlier and moves the cursor. The events are the next `limit` ingested
   * at or before `upTo` past the cursor, and every event behind the cursor that the previous step's snapshot could
   * not see (an ingest that committed after a later one was billed past: docs/usage-billing.md#billing-entries).
   */
  async step(organizationId: string, upTo: Date, limit: number, now: Date): Promise<BillingStep> {
    await sql(
      this.em,
      `insert into billing.usage_billing_cursors (organization_id, ingested_at, event_id, updated_at)
       values (?, '-infinity', ?, ?) on conflict do nothing`,
      [organizationId, ZERO_UUID, now],
    );
    const [cursor] = await sql<{ ingested_at: Date | string; event_id: string; snapshot: string | null }>(
      this.em,
      `select ingested_at, event_id, snapshot::text as snapshot from billing.usage_billing_cursors
       where organization_id = ? for update`,
      [organizationId],
    );
    const meters = await this.meters(organizationId);
    const rows = meters.length
      ? meters.map(() => '(?::uuid, ?::boolean, ?::boolean)').join(', ')
      : '(null::uuid, false, false)';
    const counted = meters.map(m => {
      const where = meterWhereSql(m, eventColumns('e'));
      return { sql: `(m.id = ?::uuid and e.source = 'user' and ${where.sql})`, values: [m.meter_id, ...where.values] };
    });
    // A credit of the meter is billed and paired too: it is what the usage line and the balance subtract.
    const credit = `(e.source = 'system' and e.name = '${METER_CREDITED}' and e.metadata ->> 'meter_id' = m.id::text)`;
    const matches = meters.length ? [...counted.map(c => c.sql), credit].join(' or ') : 'false';
    // Behind the cursor: the events of transactions the last step's snapshot did not see (none before a first one).
    const late = cursor.snapshot
      ? `union all select e.* from billing.usage_events e
         where e.organization_id = ? and e.xid >= pg_snapshot_xmin(?::pg_snapshot)::text::bigint
           and (e.ingested_at, e.id) <= (?::timestamptz, ?::uuid)
           and not pg_visible_in_snapshot(e.xid::text::xid8, ?::pg_snapshot)`
      : '';
    const lateValues = cursor.snapshot
      ? [organizationId, cursor.snapshot, cursor.ingested_at, cursor.event_id, cursor.snapshot]
      : [];
    const [row] = await sql<{ seen: number; billed: number }>(
      this.em,
      `with ahead as (
         select e.* from billing.usage_events e
         where e.organization_id = ? and (e.ingested_at, e.id) > (?::timestamptz, ?::uuid) and e.ingested_at <= ?
         order by e.ingested_at, e.id limit ?),
       batch as (select * from ahead ${late}),
       -- Each event with its customer (by id, or by external id when it names no id).
       e as (
         select b.*, c.id as cid from batch b
         join billing.customers c on c.organization_id = b.organization_id
           and (c.id = b.customer_id or (b.customer_id is null and c.external_id = b.external_customer_id))),
       matched as (
         select e.id as event_id, e.organization_id, e.ingested_at, e.source, e.cid, m.id as meter_id, m.billed, m.live
         from e cross join (values ${rows}) as m(id, billed, live)
         where ${matches}),
       written as (
         insert into billing.billing_entries (id, organization_id, meter_id, event_id, created_at, customer_id,
           subscription_id, product_price_id, ingested_at)
         select gen_random_uuid(), x.organization_id, pp.meter_id, x.event_id, ?, s.customer_id, s.id, pp.id, x.ingested_at
         from matched x
         join billing.subscriptions s on s.organization_id = x.organization_id and s.customer_id = x.cid
         join billing.product_prices pp on pp.id = any(s.price_ids::uuid[]) and pp.amount_type = 'metered_unit'
           and pp.meter_id = x.meter_id
         where x.billed and s.status not in ('incomplete', 'incomplete_expired')
           and (s.ended_at is null or x.ingested_at < s.ended_at)
           -- Usage counts once the subscription bills (started, past its trial); a credit counts whenever it came
           -- (a grant at the sale lands in the instant before the subscription's own stamp).
           and (x.source = 'system' or (s.started_at <= x.ingested_at
             and (s.trial_end is null or s.trial_end <= x.ingested_at)))
         on conflict do nothing returning 1),
       paired as (
         insert into billing.customer_meters (id, organization_id, customer_id, meter_id, created_at)
         select distinct on (x.cid, x.meter_id) gen_random_uuid(), x.organization_id, x.cid, x.meter_id, ?
         from matched x where x.live
         on conflict (customer_id, meter_id) do update set modified_at = excluded.created_at returning 1),
       -- Polar's first_user_event_at: the earliest user event's timestamp, moved earlier only.
       firsts as (
         update billing.customers c set first_user_event_at = f.at
         from (select cid, min(timestamp) as at from e where source = 'user' group by cid) f
         where c.id = f.cid and (c.first_user_event_at is null or c.first_user_event_at > f.at) returning 1),
       last as (select ingested_at, id from ahead order by ingested_at desc, id desc limit 1),
       moved as (
         update billing.usage_billing_cursors u set
           ingested_at = coalesce((select ingested_at from last), u.ingested_at),
           event_id = coalesce((select id from last), u.event_id), snapshot = pg_current_snapshot(), updated_at = ?
         where u.organization_id = ? returning 1)
       select (select count(*) from ahead)::int as seen, (select count(*) from written)::int as billed,
         (select count(*) from paired)::int as paired, (select count(*) from firsts)::int as firsts,
         (select count(*) from moved)::int as moved`,
      [
        organizationId,
        cursor.ingested_at,
        cursor.event_id,
        upTo,
        limit,
        ...lateValues,
        ...meters.flatMap(m => [m.meter_id, m.billed, m.live]),
        ...counted.flatMap(c => c.values),
        now,
        now,
        now,
        organizationId,
      ],
    );
    return { seen: row.seen, billed: row.billed };
  }

  /**
   * The organization's meters the step matches, read once per step: live ones (customer meters), and those a
   * metered price of one of its subscriptions bills (entries).
   */
  private meters(organizationId: string): Promise<MeterInUse[]> {
    return sql<MeterInUse>(
      this.em,
      `select m.id as meter_id, m.filter, m.aggregation, m.archived_at is null as live,
         exists (select 1 from billing.subscriptions s
           join billing.product_prices pp on pp.id = any(s.price_ids::uuid[]) and pp.amount_type = 'metered_unit'
           where s.organization_id = m.organization_id and pp.meter_id = m.id
             and s.status not in ('incomplete', 'incomplete_expired')) as billed
       from billing.meters m where m.organization_id = ?`,
      [organizationId],
    ).then(rows => rows.filter(m => m.live || m.billed));
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

  /**
   * Organizations with events past their cursor (the wall clock's sweep): those with a live meter or an event type
   * (every user event has one), so customers' `first_user_event_at` is set without meters too.
   */
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
