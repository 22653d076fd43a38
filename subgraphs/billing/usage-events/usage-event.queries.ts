import type { EntityManager } from '@mikro-orm/postgresql';
import { runRead } from '../../../kit/database/read/execute.js';
import { sql } from '../shared/sql.queries.js';
import type { IngestEvent } from './ingest-body.validation.js';

/**
 * One user event as the ingest statement takes it: the event as the caller sent it (usage-event.service.ts reads
 * and checks it), plus, when it differs from the batch's, its organization and ingestion time. The statement gives
 * each its id and fills in the rest; absent keys read as null.
 */
export type IngestRow = IngestEvent & { ingested_at?: string };

/** What an event of the batch that does not say otherwise is: its organization and when it was taken. */
export interface BatchDefaults {
  organizationId: string;
  ingestedAt: string;
}

/** The month (`YYYY-MM`, UTC) of an instant, as its partition is named. */
export const monthOf = (instant: Date | string): string =>
  (typeof instant === 'string' ? instant : instant.toISOString()).slice(0, 7);

/** Months whose partition this process has seen made, per database (driver): docs/usage-events.md#partitions. */
const knownMonths = new WeakMap<object, Set<string>>();

/**
 * Event types (organization and name) this process has seen exist, per database (driver). Event types are never
 * deleted, so a batch whose names are all here skips the statement's event-type insert (docs/usage-events.md).
 * Bounded: forgotten when full, which only costs the insert again.
 */
const knownTypes = new WeakMap<object, Set<string>>();
const KNOWN_TYPES_MAX = 10_000;

// The batch ($1) read once (materialized: each event gets ONE id), with the batch's organization ($2) and ingestion
// time ($3) where an event carries neither; an event without a timestamp happened when it was taken.
const INPUT = `input as materialized (
        select gen_random_uuid() as id, coalesce(x.organization_id, $2::uuid) as organization_id, x.name,
          coalesce(x.timestamp, x.ingested_at, $3::timestamptz) as timestamp,
          coalesce(x.ingested_at, $3::timestamptz) as ingested_at, x.customer_id, x.external_customer_id, x.member_id,
          x.external_member_id, x.external_id, x.parent_id as parent, coalesce(x.metadata, '{}') as metadata
        from json_to_recordset($1::json) as x(organization_id uuid, name text, timestamp timestamptz,
          ingested_at timestamptz, customer_id uuid, external_customer_id text, member_id uuid, external_member_id text,
          external_id text, parent_id text, metadata jsonb))`;

const TYPES = `types as (
        insert into billing.event_types (id, organization_id, name, label, created_at)
        select distinct on (organization_id, name) gen_random_uuid(), organization_id, name, name, ingested_at
        from input on conflict (organization_id, name) do nothing),`;

/** The ingest statement after its input and, when a batch names new event types, their insert. */
const CLAIM_AND_INSERT = `
      claimed as (
        insert into billing.usage_event_external_ids (organization_id, external_id, event_id)
        select organization_id, external_id, id from input where external_id is not null
        on conflict do nothing returning event_id),
      inserted as (
        insert into billing.usage_events (id, organization_id, name, source, timestamp, ingested_at, customer_id,
          external_customer_id, member_id, external_member_id, external_id, parent_id, metadata)
        select i.id, i.organization_id, i.name, 'user', i.timestamp, i.ingested_at, i.customer_id,
          i.external_customer_id, i.member_id, i.external_member_id, i.external_id,
          case when i.parent is null then null else coalesce(
            (select b.id from input b where b.organization_id = i.organization_id and b.external_id = i.parent limit 1),
            (select x.event_id from billing.usage_event_external_ids x
              where x.organization_id = i.organization_id and x.external_id = i.parent),
            (select p.id from billing.usage_events p where p.organization_id = i.organization_id
              and i.parent ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' and p.id = i.parent::uuid limit 1))
          end,
          i.metadata
        from input i where i.external_id is null or i.id in (select event_id from claimed)
        returning 1)
      select count(*)::int as inserted from inserted`;

const WITH_TYPES = `with ${INPUT},\n      ${TYPES}${CLAIM_AND_INSERT}`;
const WITHOUT_TYPES = `with ${INPUT},${CLAIM_AND_INSERT}`;

/**
 * The usage events' statements (docs/usage-events.md): the ingest, which is ONE statement whatever the batch, and
 * the partitions it needs. Runs on the entity manager it is given.
 */
export class UsageEventQueries {
  constructor(private readonly em: EntityManager) {}

  /**
   * The monthly partitions of these months (`YYYY-MM`), made when missing. A process asks the database once per
   * month it has not seen (the check is `to_regclass`, then an advisory lock so two processes do not race), outside
   * the insert's statement: partition DDL locks the parent table, which must not be held for a whole transaction.
   */
  async ensurePartitions(months: Iterable<string>): Promise<void> {
    const driver = this.em.getDriver();
    let known = knownMonths.get(driver);
    if (!known) knownMonths.set(driver, (known = new Set()));
    const missing = [...months].filter(m => !known.has(m));
    if (!missing.length) return;
    await sql(this.em, 'select billing.ensure_usage_event_partition(m) from unnest(?::timestamptz[]) m', [
      missing.map(m => `${m}-01T00:00:00Z`),
    ]);
    for (const m of missing) known.add(m);
  }

  /**
   * Builds the `xid` BRIN index (docs/usage-events.md#partitions) on every partition that lacks it, each
   * `CONCURRENTLY` (inserts go on), then attaches it to the parent's index. The migration made that parent index
   * `ON ONLY` the partitioned table, which builds nothing; a partition made later gets its own at creation, so this
   * finds work only after that migration, for the partitions that existed then. An index left invalid by a failed
   * build is dropped and built again. Runs outside any transaction (CONCURRENTLY requires it).
   */
  async ensureXidIndexes(): Promise<number> {
    const missing = await sql<{ partition: string; index: string | null; valid: boolean | null }>(
      this.em,
      `select c.relname as partition, ix.relname as index, x.indisvalid as valid
       from pg_inherits i
       join pg_class c on c.oid = i.inhrelid
       left join pg_class ix on ix.relname = c.relname || '_xid' and ix.relnamespace = c.relnamespace
       left join pg_index x on x.indexrelid = ix.oid
       where i.inhparent = 'billing.usage_events'::regclass
         and not exists (select 1 from pg_inherits a join pg_index pi on pi.indexrelid = a.inhrelid
                         where a.inhparent = 'billing.usage_events_xid'::regclass and pi.indrelid = c.oid)`,
      [],
    );
    for (const { partition, index, valid } of missing) {
      const table = `billing.${identifier(partition)}`;
      const name = identifier(`${partition}_xid`);
      if (index && !valid) await sql(this.em, `drop index concurrently if exists billing.${name}`, []);
      await sql(this.em, `create index concurrently if not exists ${name} on ${table} using brin (xid)`, []);
      await sql(this.em, `alter index billing.usage_events_xid attach partition billing.${name}`, []);
    }
    return missing.length;
  }

  /** The live customers among `ids` in these organizations. */
  async liveCustomers(organizationIds: readonly string[], ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await sql<{ id: string }>(
      this.em,
      `select id from billing.customers where id = any(?::uuid[]) and organization_id = any(?::uuid[]) and deleted_at is null`,
      [[...ids], [...organizationIds]],
    );
    return new Set(rows.map(r => r.id));
  }

  /**
   * The batch, in ONE statement: new event names become event types (left out when this process knows them all);
   * each `external_id` is claimed in `usage_event_external_ids` with ON CONFLICT DO NOTHING (the dedupe across
   * batches and concurrent requests: a concurrent claim of the same key waits for the first to commit, then does
   * nothing); the events without an external id or whose claim won are inserted. A parent is resolved from a Polar
   * id of the organization, an external id already claimed, or an external id in the same batch; one that cannot
   * be found is left null. Answers how many were inserted.
   */
  async insertBatch(rows: readonly IngestRow[], defaults: BatchDefaults): Promise<number> {
    const driver = this.em.getDriver();
    let known = knownTypes.get(driver);
    if (!known) knownTypes.set(driver, (known = new Set()));
    const types = new Set<string>();
    for (const row of rows) {
      const key = `${row.organization_id ?? defaults.organizationId} ${row.name}`;
      if (!known.has(key)) types.add(key);
    }
    const [result] = await runRead(this.em, types.size ? WITH_TYPES : WITHOUT_TYPES, [
      JSON.stringify(rows),
      defaults.organizationId,
      defaults.ingestedAt,
    ]);
    if (known.size + types.size > KNOWN_TYPES_MAX) known.clear();
    for (const key of types) known.add(key);
    return result.inserted as number;
  }
}

/** A catalogue name as an SQL identifier (quoted: partition names come from the catalogue, not from a caller). */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
