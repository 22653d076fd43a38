import { Migration } from '@mikro-orm/migrations';

/** Disputes of payments (docs/disputes.md), one row per processor dispute. */
export class Migration20261128232000_disputes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."disputes" (
      "id" uuid not null primary key, "organization_id" uuid not null, "order_id" uuid not null,
      "payment_id" uuid not null, "customer_id" uuid not null, "status" text not null,
      "amount" bigint not null, "tax_amount" bigint not null default 0, "currency" text not null,
      "processor_id" text not null, "reason" text null, "evidence_due_by" timestamptz null,
      "past_due" boolean not null default false, "created_at" timestamptz not null, "modified_at" timestamptz null,
      constraint "disputes_processor_id_unique" unique ("processor_id"));`);
    this.addSql(
      `create index if not exists "disputes_organization_id_created_at_index" on "billing"."disputes" ("organization_id", "created_at");`,
    );
    this.addSql(`create index if not exists "disputes_order_id_index" on "billing"."disputes" ("order_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."disputes";`);
  }
}
