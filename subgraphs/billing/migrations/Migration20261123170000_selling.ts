import { Migration } from '@mikro-orm/migrations';

/**
 * Selling (issue 10): checkouts, orders and their items, every charge attempt of an order (Polar's
 * Payment, failed ones included), customers' saved payment methods, the per-organization invoice
 * number sequence, and the durable jobs table (checkout fulfilment now, renewals next). Money is
 * bigint minor units. What makes a crash safe is here: one order per checkout (`orders_checkout_id_unique`),
 * one payment row per processor idempotency key, one job per idempotency key.
 */
export class Migration20261123170000_selling extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing"."checkouts" (
      "id" uuid not null, "organization_id" uuid not null, "client_secret" text not null,
      "status" text not null check ("status" in ('open', 'expired', 'confirmed', 'succeeded', 'failed')),
      "product_ids" uuid[] not null, "product_id" uuid not null, "product_price_id" uuid not null,
      "ad_hoc_prices" jsonb null, "discount_id" uuid null, "allow_discount_codes" boolean not null default true,
      "require_billing_address" boolean not null default false, "amount" bigint not null, "seats" int null,
      "min_seats" int null, "max_seats" int null, "currency" text not null,
      "discount_amount" bigint not null default 0, "tax_amount" bigint not null default 0,
      "allow_trial" boolean not null default true, "trial_interval" text null, "trial_interval_count" int null,
      "customer_id" uuid null, "external_customer_id" text null, "is_business_customer" boolean not null default false,
      "customer_name" text null, "customer_email" text null, "customer_ip_address" text null,
      "customer_billing_name" text null, "customer_billing_address" jsonb null, "customer_tax_id" text null,
      "customer_metadata" jsonb not null default '{}', "metadata" jsonb not null default '{}',
      "custom_field_data" jsonb not null default '{}', "subscription_id" uuid null, "success_url" text null,
      "return_url" text null, "embed_origin" text null, "locale" text null,
      "payment_attempts" int not null default 0,
      "expires_at" timestamptz not null, "created_at" timestamptz not null, "modified_at" timestamptz null,
      primary key ("id"), constraint "checkouts_client_secret_unique" unique ("client_secret"));`);
    this.addSql(
      `create index "checkouts_organization_id_created_at_index" on "billing"."checkouts" ("organization_id", "created_at");`,
    );
    this.addSql(`create table "billing"."invoice_number_sequences" (
      "organization_id" uuid not null, "last_number" int not null default 0, primary key ("organization_id"));`);
    this.addSql(`create table "billing"."orders" (
      "id" uuid not null, "organization_id" uuid not null, "customer_id" uuid not null, "product_id" uuid null,
      "product_price_id" uuid null, "subscription_id" uuid null, "checkout_id" uuid null, "discount_id" uuid null,
      "status" text not null check ("status" in ('draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void')),
      "billing_reason" text not null, "currency" text not null,
      "subtotal_amount" bigint not null, "discount_amount" bigint not null default 0, "tax_amount" bigint not null default 0,
      "applied_balance_amount" bigint not null default 0, "refunded_amount" bigint not null default 0,
      "refunded_tax_amount" bigint not null default 0, "platform_fee_amount" bigint not null default 0,
      "billing_name" text null, "billing_address" jsonb null, "invoice_number" text null,
      "is_invoice_generated" boolean not null default false, "seats" int null,
      "metadata" jsonb not null default '{}', "custom_field_data" jsonb not null default '{}',
      "next_payment_attempt_at" timestamptz null, "created_at" timestamptz not null, "modified_at" timestamptz null,
      primary key ("id"),
      constraint "orders_amounts_consistent" check ("subtotal_amount" >= 0 and "discount_amount" between 0 and "subtotal_amount"),
      constraint "orders_invoice_number_unique" unique ("organization_id", "invoice_number"));`);
    this.addSql(
      `create unique index "orders_checkout_id_unique" on "billing"."orders" ("checkout_id") where "checkout_id" is not null;`,
    );
    this.addSql(
      `create index "orders_organization_id_created_at_index" on "billing"."orders" ("organization_id", "created_at");`,
    );
    this.addSql(`create index "orders_customer_id_index" on "billing"."orders" ("organization_id", "customer_id");`);
    this.addSql(`create index "orders_product_id_index" on "billing"."orders" ("organization_id", "product_id");`);
    this.addSql(`create index "orders_subscription_id_index" on "billing"."orders" ("subscription_id");`);
    this.addSql(`create table "billing"."order_items" (
      "id" uuid not null, "order_id" uuid not null references "billing"."orders" ("id") on delete cascade,
      "label" text not null, "amount" bigint not null, "tax_amount" bigint not null default 0,
      "proration" boolean not null default false, "product_price_id" uuid null, "position" int not null,
      "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "order_items_order_id_index" on "billing"."order_items" ("order_id", "position");`);
    this.addSql(`create table "billing"."payment_methods" (
      "id" uuid not null, "organization_id" uuid not null, "customer_id" uuid not null,
      "processor" text not null, "processor_id" text not null, "processor_customer_id" text not null,
      "type" text not null, "brand" text null, "last4" text null, "exp_month" int null, "exp_year" int null,
      "is_default" boolean not null default false, "created_at" timestamptz not null, "modified_at" timestamptz null,
      "deleted_at" timestamptz null, primary key ("id"),
      constraint "payment_methods_processor_id_unique" unique ("customer_id", "processor_id"));`);
    this.addSql(`create table "billing"."payments" (
      "id" uuid not null, "organization_id" uuid not null, "customer_id" uuid null, "checkout_id" uuid null,
      "order_id" uuid null, "processor" text not null, "idempotency_key" text not null,
      "status" text not null check ("status" in ('pending', 'succeeded', 'failed')),
      "amount" bigint not null, "currency" text not null, "method" text not null,
      "method_metadata" jsonb not null default '{}', "processor_id" text null, "decline_reason" text null,
      "decline_message" text null, "processor_metadata" jsonb not null default '{}',
      "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"),
      constraint "payments_idempotency_key_unique" unique ("idempotency_key"));`);
    this.addSql(
      `create index "payments_organization_id_created_at_index" on "billing"."payments" ("organization_id", "created_at");`,
    );
    this.addSql(`create index "payments_order_id_index" on "billing"."payments" ("order_id");`);
    this.addSql(`create index "payments_checkout_id_index" on "billing"."payments" ("checkout_id");`);
    this.addSql(`create table "billing"."jobs" (
      "id" uuid not null, "kind" text not null, "idempotency_key" text not null, "payload" jsonb not null,
      "status" text not null check ("status" in ('pending', 'done', 'failed')),
      "attempts" int not null default 0, "max_attempts" int not null default 10,
      "run_at" timestamptz not null, "locked_until" timestamptz null, "locked_by" text null, "last_error" text null,
      "created_at" timestamptz not null, "finished_at" timestamptz null, primary key ("id"),
      constraint "jobs_idempotency_key_unique" unique ("idempotency_key"));`);
    this.addSql(`create index "jobs_due_index" on "billing"."jobs" ("run_at") where "status" = 'pending';`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'jobs',
      'payments',
      'payment_methods',
      'order_items',
      'orders',
      'invoice_number_sequences',
      'checkouts',
    ])
      this.addSql(`drop table if exists "billing"."${table}";`);
  }
}
