import { Migration } from '@mikro-orm/migrations';

/**
 * The billing job's tables (docs/usage-billing.md#billing-entries). `billing_entries` gets what an entry is: one
 * event billed by one metered price of one subscription, at its ingestion time, and the order that billed it
 * (null while pending). Unique (event, subscription, price): an event is billed exactly once whatever re-runs
 * the job. `usage_billing_cursors` is how far each organization's events (by ingestion time) have been
 * looked at. Each ingest statement notifies `billing.usage`, which wakes the billing job.
 */
export class Migration20261129060001_billing_entries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."billing_entries"
      add column if not exists "customer_id" uuid null, add column if not exists "subscription_id" uuid null,
      add column if not exists "product_price_id" uuid null, add column if not exists "ingested_at" timestamptz null,
      add column if not exists "order_id" uuid null;`);
    this.addSql(`create unique index if not exists "billing_entries_once"
      on "billing"."billing_entries" ("event_id", "subscription_id", "product_price_id");`);
    this.addSql(`create index if not exists "billing_entries_pending"
      on "billing"."billing_entries" ("subscription_id", "product_price_id", "ingested_at") where "order_id" is null;`);
    this.addSql(`create table if not exists "billing"."usage_billing_cursors" (
      "organization_id" uuid not null primary key, "ingested_at" timestamptz not null, "event_id" uuid not null,
      "updated_at" timestamptz not null);`);
    this.addSql(`drop trigger if exists "usage_events_notify_billing" on "billing"."usage_events";`);
    this.addSql(
      `create trigger "usage_events_notify_billing" after insert on "billing"."usage_events" for each statement execute function "billing"."notify_background_work"('billing.usage');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "usage_events_notify_billing" on "billing"."usage_events";`);
    this.addSql(`drop table if exists "billing"."usage_billing_cursors";`);
    this.addSql(`drop index if exists "billing"."billing_entries_pending";`);
    this.addSql(`drop index if exists "billing"."billing_entries_once";`);
    this.addSql(`alter table "billing"."billing_entries" drop column if exists "customer_id",
      drop column if exists "subscription_id", drop column if exists "product_price_id",
      drop column if exists "ingested_at", drop column if exists "order_id";`);
  }
}
