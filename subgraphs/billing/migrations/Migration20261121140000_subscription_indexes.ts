import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes behind the subscription list filters and sort keys (docs/interface.md#endpoints):
 * - (organization_id, started_at, id): the default `-started_at` page of one organization is an index
 *   scan that stops after `limit` rows (id is the tie-breaker of every ordering);
 * - (organization_id, status): `status` / `active` filters and their counts;
 * - (organization_id, canceled_at): the inclusive `canceled_at_after` / `canceled_at_before` bounds;
 * - GIN (metadata jsonb_path_ops): `metadata[key]=value`, compiled to `metadata @> {...}` containment.
 *
 * And `subscription_counts`: the number of subscriptions per (organization, status,
 * cancel_at_period_end), kept exact by statement-level triggers in the same transaction as every
 * insert, update and delete. A list whose filters are only those columns (the common case: all
 * subscriptions, or by status / `active`) reads its `total_count` from here instead of a `count(*)`
 * over every matching row, which at 100,000 rows costs more than everything else of the request
 * (docs/subscriptions.md#subscriptions-reads-create-and-counting).
 */
export class Migration20261121140000_subscription_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "subscriptions_organization_id_started_at_id_index" on "billing"."subscriptions" ("organization_id", "started_at", "id");`,
    );
    this.addSql(
      `create index if not exists "subscriptions_organization_id_status_index" on "billing"."subscriptions" ("organization_id", "status");`,
    );
    this.addSql(
      `create index if not exists "subscriptions_organization_id_canceled_at_index" on "billing"."subscriptions" ("organization_id", "canceled_at");`,
    );
    this.addSql(
      `create index if not exists "subscriptions_metadata_gin_index" on "billing"."subscriptions" using gin ("metadata" jsonb_path_ops);`,
    );
    this.addSql(
      `create table "billing"."subscription_counts" ("organization_id" uuid not null, "status" text not null, "cancel_at_period_end" boolean not null, "n" bigint not null default 0, primary key ("organization_id", "status", "cancel_at_period_end"));`,
    );
    // Rows are locked in key order, so concurrent statements cannot deadlock on the counters.
    this.addSql(`create or replace function "billing"."subscription_counts_apply"() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, -count(*) from old_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into billing.subscription_counts as c (organization_id, status, cancel_at_period_end, n)
      select organization_id, status, cancel_at_period_end, count(*) from new_rows group by 1, 2, 3 order by 1, 2, 3
      on conflict (organization_id, status, cancel_at_period_end) do update set n = c.n + excluded.n;
  end if;
  return null;
end $$;`);
    this.addSql(
      `create trigger "subscription_counts_insert" after insert on "billing"."subscriptions" referencing new table as new_rows for each statement execute function "billing"."subscription_counts_apply"();`,
    );
    this.addSql(
      `create trigger "subscription_counts_update" after update on "billing"."subscriptions" referencing old table as old_rows new table as new_rows for each statement execute function "billing"."subscription_counts_apply"();`,
    );
    this.addSql(
      `create trigger "subscription_counts_delete" after delete on "billing"."subscriptions" referencing old table as old_rows for each statement execute function "billing"."subscription_counts_apply"();`,
    );
    this.addSql(
      `insert into "billing"."subscription_counts" ("organization_id", "status", "cancel_at_period_end", "n") select "organization_id", "status", "cancel_at_period_end", count(*) from "billing"."subscriptions" group by 1, 2, 3;`,
    );
  }

  override async down(): Promise<void> {
    for (const op of ['insert', 'update', 'delete'])
      this.addSql(`drop trigger if exists "subscription_counts_${op}" on "billing"."subscriptions";`);
    this.addSql(`drop function if exists "billing"."subscription_counts_apply"();`);
    this.addSql(`drop table if exists "billing"."subscription_counts";`);
    for (const name of [
      'subscriptions_organization_id_started_at_id_index',
      'subscriptions_organization_id_status_index',
      'subscriptions_organization_id_canceled_at_index',
      'subscriptions_metadata_gin_index',
    ]) {
      this.addSql(`drop index if exists "billing"."${name}";`);
    }
  }
}
