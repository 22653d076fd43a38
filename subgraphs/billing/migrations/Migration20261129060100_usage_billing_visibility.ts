import { Migration } from '@mikro-orm/migrations';

/**
 * What the billing job needs to never pass over an event (docs/usage-billing.md#billing-entries), and customers'
 * `first_user_event_at` (docs/usage-events.md#first-user-event).
 *
 * - `usage_events.xid`: the id of the transaction that inserted the event, filled by the column's default (no
 *   statement names it). With the snapshot the job's last step read under (`usage_billing_cursors.snapshot`), it
 *   tells which events that step could not see: those are looked at again whatever their place behind the cursor.
 *   Rows older than this migration keep null: every one of them was committed before it ran (the ALTER waits).
 *   A BRIN index: transaction ids grow with the table's pages, so it stays a few pages per partition and costs the
 *   ingest next to nothing. It is made `ON ONLY` the partitioned table, which builds nothing and takes no
 *   partition's lock (docs/operations.md#migrations-that-keep-serving); the partitions that exist get theirs
 *   `CONCURRENTLY` from the partitions worker (usage-event-partitions.ts), and later ones at their creation.
 * - `customers.first_user_event_at`: the timestamp of the customer's first user event, moved earlier only.
 */
export class Migration20261129060100_usage_billing_visibility extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."usage_events" add column if not exists "xid" bigint null;`);
    this.addSql(
      `alter table "billing"."usage_events" alter column "xid" set default (pg_current_xact_id()::text::bigint);`,
    );
    this.addSql(`create index if not exists "usage_events_xid" on only "billing"."usage_events" using brin ("xid");`);
    this.addSql(`alter table "billing"."usage_billing_cursors" add column if not exists "snapshot" pg_snapshot null;`);
    this.addSql(`alter table "billing"."customers" add column if not exists "first_user_event_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."customers" drop column if exists "first_user_event_at";`);
    this.addSql(`alter table "billing"."usage_billing_cursors" drop column if exists "snapshot";`);
    this.addSql(`drop index if exists "billing"."usage_events_xid";`);
    this.addSql(`alter table "billing"."usage_events" drop column if exists "xid";`);
  }
}
