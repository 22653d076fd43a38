import { Migration } from '@mikro-orm/migrations';

/**
 * Usage events, their types and meters (docs/usage-events.md, docs/meters.md).
 *
 * `usage_events` is partitioned by range on `timestamp`, one partition a month, created on demand by
 * `billing.ensure_usage_event_partition` (the ingest calls it for a month it has not seen) so an old month can be
 * detached and dropped without touching the others. A unique index of a partitioned table must contain the
 * partition key, so the (organization, external_id) dedupe lives in its own table, `usage_event_external_ids`,
 * which the ingest's one statement claims with ON CONFLICT DO NOTHING before it inserts the events it won.
 * `billing_entries` is the billing job's table (empty until it exists): a meter with entries has billed events.
 */
export class Migration20261129040000_usage_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."usage_events" (
      "id" uuid not null, "organization_id" uuid not null, "name" text not null, "source" text not null,
      "timestamp" timestamptz not null, "ingested_at" timestamptz not null, "customer_id" uuid null,
      "external_customer_id" text null, "member_id" uuid null, "external_member_id" text null,
      "external_id" text null, "parent_id" uuid null, "metadata" jsonb not null default '{}',
      primary key ("id", "timestamp")) partition by range ("timestamp");`);
    this.addSql(
      `create index if not exists "usage_events_org_timestamp" on "billing"."usage_events" ("organization_id", "timestamp" desc, "id");`,
    );
    this.addSql(
      `create index if not exists "usage_events_org_name" on "billing"."usage_events" ("organization_id", "name", "timestamp");`,
    );
    this.addSql(
      `create index if not exists "usage_events_org_customer" on "billing"."usage_events" ("organization_id", "customer_id", "timestamp") where "customer_id" is not null;`,
    );
    this.addSql(
      `create index if not exists "usage_events_org_external_customer" on "billing"."usage_events" ("organization_id", "external_customer_id", "timestamp") where "external_customer_id" is not null;`,
    );
    this.addSql(
      `create index if not exists "usage_events_org_ingested" on "billing"."usage_events" ("organization_id", "ingested_at", "id");`,
    );
    this.addSql(
      `create index if not exists "usage_events_parent" on "billing"."usage_events" ("parent_id") where "parent_id" is not null;`,
    );
    this.addSql(`create table if not exists "billing"."usage_event_external_ids" (
      "organization_id" uuid not null, "external_id" text not null, "event_id" uuid not null,
      primary key ("organization_id", "external_id"));`);
    this.addSql(`create or replace function "billing"."ensure_usage_event_partition"(at timestamptz) returns void
      language plpgsql as $$
      declare
        first_day timestamp := date_trunc('month', at at time zone 'UTC');
        partition text := 'usage_events_' || to_char(first_day, 'YYYY_MM');
      begin
        if to_regclass('billing.' || partition) is not null then return; end if;
        -- Two processes seeing a new month at once: the second waits, then finds it made.
        perform pg_advisory_xact_lock(hashtext('billing.usage_events partitions'));
        if to_regclass('billing.' || partition) is not null then return; end if;
        execute format('create table billing.%I partition of billing.usage_events for values from (%L) to (%L)',
          partition, first_day at time zone 'UTC', (first_day + interval '1 month') at time zone 'UTC');
      end $$;`);
    this.addSql(`create table if not exists "billing"."event_types" (
      "id" uuid not null primary key, "organization_id" uuid not null, "name" text not null, "label" text not null,
      "label_property_selector" text null, "created_at" timestamptz not null, "modified_at" timestamptz null,
      unique ("organization_id", "name"));`);
    this.addSql(`create table if not exists "billing"."meters" (
      "id" uuid not null primary key, "organization_id" uuid not null, "name" text not null, "unit" text not null,
      "custom_label" text null, "custom_multiplier" integer null, "filter" jsonb not null, "aggregation" jsonb not null,
      "metadata" jsonb not null default '{}', "archived_at" timestamptz null, "created_at" timestamptz not null,
      "modified_at" timestamptz null);`);
    this.addSql(
      `create index if not exists "meters_org_created" on "billing"."meters" ("organization_id", "created_at");`,
    );
    this.addSql(`create table if not exists "billing"."billing_entries" (
      "id" uuid not null primary key, "organization_id" uuid not null, "meter_id" uuid not null,
      "event_id" uuid not null, "created_at" timestamptz not null);`);
    this.addSql(`create index if not exists "billing_entries_meter" on "billing"."billing_entries" ("meter_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."billing_entries";`);
    this.addSql(`drop table if exists "billing"."meters";`);
    this.addSql(`drop table if exists "billing"."event_types";`);
    this.addSql(`drop function if exists "billing"."ensure_usage_event_partition"(timestamptz);`);
    this.addSql(`drop table if exists "billing"."usage_event_external_ids";`);
    this.addSql(`drop table if exists "billing"."usage_events";`);
  }
}
