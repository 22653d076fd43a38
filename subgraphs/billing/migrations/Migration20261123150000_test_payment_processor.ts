import { Migration } from '@mikro-orm/migrations';

/**
 * The built-in test payment processor's ledger: customers, saved payment methods, charges and
 * refunds, each unique by the idempotency key we send, so a retried call finds the first row and
 * never charges twice. Processor ids are text (`cus_test_…`, `pm_test_…`, `ch_test_…`, `re_test_…`).
 */
export class Migration20261123150000_test_payment_processor extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "billing"."test_processor_customers" ("id" text not null, "idempotency_key" text not null, "email" text null, "name" text null, "metadata" jsonb not null, "created_at" timestamptz not null, primary key ("id"), constraint "test_processor_customers_idempotency_key_unique" unique ("idempotency_key"));`,
    );
    this.addSql(
      `create table "billing"."test_processor_payment_methods" ("id" text not null, "idempotency_key" text not null, "customer_id" text not null, "test_method" text not null, "status" text not null check ("status" in ('saved', 'failed')), "brand" text not null, "last4" text not null, "exp_month" int not null, "exp_year" int not null, "failure_code" text null, "decline_code" text null, "failure_message" text null, "created_at" timestamptz not null, primary key ("id"), constraint "test_processor_payment_methods_idempotency_key_unique" unique ("idempotency_key"));`,
    );
    this.addSql(
      `create index "test_processor_payment_methods_customer_id_index" on "billing"."test_processor_payment_methods" ("customer_id");`,
    );
    this.addSql(
      `create table "billing"."test_processor_charges" ("id" text not null, "idempotency_key" text not null, "customer_id" text null, "payment_method_id" text null, "saved_payment_method_id" text null, "test_method" text not null, "amount" bigint not null check ("amount" > 0), "currency" text not null, "status" text not null check ("status" in ('succeeded', 'failed')), "brand" text not null, "last4" text not null, "exp_month" int not null, "exp_year" int not null, "failure_code" text null, "decline_code" text null, "failure_message" text null, "off_session" boolean not null default false, "description" text null, "metadata" jsonb not null, "amount_refunded" bigint not null default 0, "created_at" timestamptz not null, primary key ("id"), constraint "test_processor_charges_idempotency_key_unique" unique ("idempotency_key"), constraint "test_processor_charges_refund_within_amount" check ("amount_refunded" between 0 and "amount"));`,
    );
    this.addSql(
      `create index "test_processor_charges_customer_id_created_at_index" on "billing"."test_processor_charges" ("customer_id", "created_at");`,
    );
    this.addSql(
      `create table "billing"."test_processor_refunds" ("id" text not null, "idempotency_key" text not null, "charge_id" text not null references "billing"."test_processor_charges" ("id"), "amount" bigint not null check ("amount" > 0), "currency" text not null, "reason" text null, "status" text not null, "metadata" jsonb not null, "created_at" timestamptz not null, primary key ("id"), constraint "test_processor_refunds_idempotency_key_unique" unique ("idempotency_key"));`,
    );
    this.addSql(
      `create index "test_processor_refunds_charge_id_index" on "billing"."test_processor_refunds" ("charge_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."test_processor_refunds";`);
    this.addSql(`drop table if exists "billing"."test_processor_charges";`);
    this.addSql(`drop table if exists "billing"."test_processor_payment_methods";`);
    this.addSql(`drop table if exists "billing"."test_processor_customers";`);
  }
}
