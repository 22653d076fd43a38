import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds and invoices (issue 10): a refund per processor idempotency key (`refunds_idempotency_key_unique`,
 * so a replay is never recorded twice), listed per organization newest first and per order; an
 * order's generated invoice PDF kept in PostgreSQL (bytea), so every process of a distributed
 * deployment serves the same file, with the checksum of what it was rendered from (regenerating an
 * unchanged order is a no-op, as at Polar).
 */
export class Migration20261124100000_refunds_invoices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing"."refunds" (
      "id" uuid not null, "organization_id" uuid not null,
      "order_id" uuid not null references "billing"."orders" ("id"),
      "subscription_id" uuid null, "customer_id" uuid not null, "payment_id" uuid null,
      "status" text not null check ("status" in ('pending', 'succeeded', 'failed', 'canceled')),
      "reason" text not null, "amount" bigint not null check ("amount" > 0),
      "tax_amount" bigint not null default 0 check ("tax_amount" >= 0), "currency" text not null,
      "comment" text null, "revoke_benefits" boolean not null default false, "metadata" jsonb not null default '{}',
      "idempotency_key" text not null, "processor_id" text null, "failure_reason" text null,
      "created_at" timestamptz not null, "modified_at" timestamptz null,
      primary key ("id"), constraint "refunds_idempotency_key_unique" unique ("idempotency_key"));`);
    this.addSql(
      `create index "refunds_organization_id_created_at_index" on "billing"."refunds" ("organization_id", "created_at");`,
    );
    this.addSql(`create index "refunds_order_id_index" on "billing"."refunds" ("order_id");`);
    this.addSql(
      `alter table "billing"."orders" add constraint "orders_refunded_within_net" check ("refunded_amount" >= 0 and "refunded_tax_amount" >= 0);`,
    );
    this.addSql(`create table "billing"."order_invoices" (
      "order_id" uuid not null references "billing"."orders" ("id") on delete cascade,
      "organization_id" uuid not null, "pdf" bytea not null, "checksum" text not null,
      "generated_at" timestamptz not null, primary key ("order_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."order_invoices";`);
    this.addSql(`alter table "billing"."orders" drop constraint if exists "orders_refunded_within_net";`);
    this.addSql(`drop table if exists "billing"."refunds";`);
  }
}
