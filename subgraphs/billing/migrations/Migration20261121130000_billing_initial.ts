import { Migration } from '@mikro-orm/migrations';

/** Catalog, customers, customer sessions, subscriptions and the outbox of the billing subgraph. */
export class Migration20261121130000_billing_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "billing"."customers" ("id" uuid not null, "organization_id" uuid not null, "external_id" text null, "email" text null, "email_verified" boolean not null default false, "type" text not null default 'individual', "name" text null, "billing_name" text null, "billing_address" jsonb null, "tax_id" jsonb null, "locale" text null, "metadata" jsonb not null, "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "customers_organization_id_created_at_index" on "billing"."customers" ("organization_id", "created_at");`,
    );
    this.addSql(
      `alter table "billing"."customers" add constraint "customers_type_check" check ("type" in ('individual', 'team'));`,
    );
    this.addSql(
      `create table "billing"."customer_sessions" ("id" uuid not null, "customer_id" uuid not null, "organization_id" uuid not null, "token_hash" text not null, "return_url" text null, "expires_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "customer_sessions_customer_id_index" on "billing"."customer_sessions" ("customer_id");`);
    this.addSql(
      `alter table "billing"."customer_sessions" add constraint "customer_sessions_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `create table "billing"."discounts" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "type" text not null, "amount" bigint null, "currency" text null, "basis_points" int null, "duration" text not null, "duration_in_months" int null, "code" text null, "starts_at" timestamptz null, "ends_at" timestamptz null, "max_redemptions" int null, "redemptions_count" int not null default 0, "product_ids" text[] not null, "metadata" jsonb not null, "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "discounts_organization_id_created_at_index" on "billing"."discounts" ("organization_id", "created_at");`,
    );
    this.addSql(
      `alter table "billing"."discounts" add constraint "discounts_organization_id_code_unique" unique ("organization_id", "code");`,
    );
    this.addSql(
      `alter table "billing"."discounts" add constraint "discounts_type_check" check ("type" in ('fixed', 'percentage'));`,
    );
    this.addSql(
      `alter table "billing"."discounts" add constraint "discounts_duration_check" check ("duration" in ('once', 'forever', 'repeating'));`,
    );
    this.addSql(
      `create table "billing"."events" ("id" uuid not null, "organization_id" uuid not null, "type" text not null, "payload" jsonb not null, "created_at" timestamptz not null, "dispatched_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "events_dispatched_at_created_at_index" on "billing"."events" ("dispatched_at", "created_at");`,
    );
    this.addSql(
      `create table "billing"."products" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "description" text null, "visibility" text not null default 'public', "recurring_interval" text null, "recurring_interval_count" int null, "trial_interval" text null, "trial_interval_count" int null, "is_archived" boolean not null default false, "metadata" jsonb not null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "products_organization_id_created_at_index" on "billing"."products" ("organization_id", "created_at");`,
    );
    this.addSql(
      `alter table "billing"."products" add constraint "products_visibility_check" check ("visibility" in ('draft', 'private', 'public'));`,
    );
    this.addSql(
      `alter table "billing"."products" add constraint "products_recurring_interval_check" check ("recurring_interval" in ('day', 'week', 'month', 'year'));`,
    );
    this.addSql(
      `alter table "billing"."products" add constraint "products_trial_interval_check" check ("trial_interval" in ('day', 'week', 'month', 'year'));`,
    );
    this.addSql(
      `create table "billing"."product_prices" ("id" uuid not null, "product_id" uuid not null, "amount_type" text not null, "price_currency" text not null default 'usd', "tax_behavior" text null, "source" text not null default 'catalog', "is_archived" boolean not null default false, "price_amount" bigint null, "minimum_amount" bigint null, "maximum_amount" bigint null, "preset_amount" bigint null, "seat_tiers" jsonb null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "product_prices_product_id_index" on "billing"."product_prices" ("product_id");`);
    this.addSql(
      `alter table "billing"."product_prices" add constraint "product_prices_amount_type_check" check ("amount_type" in ('fixed', 'custom', 'seat_based', 'free'));`,
    );
    this.addSql(
      `create table "billing"."subscriptions" ("id" uuid not null, "organization_id" uuid not null, "customer_id" uuid not null, "product_id" uuid not null, "discount_id" uuid null, "checkout_id" uuid null, "price_ids" text[] not null, "amount" bigint not null default '0', "currency" text not null default 'usd', "recurring_interval" text not null, "recurring_interval_count" int not null default 1, "status" text not null, "current_period_start" timestamptz not null, "current_period_end" timestamptz not null, "trial_start" timestamptz null, "trial_end" timestamptz null, "cancel_at_period_end" boolean not null default false, "canceled_at" timestamptz null, "started_at" timestamptz null, "ends_at" timestamptz null, "ended_at" timestamptz null, "past_due_at" timestamptz null, "pause_at_period_end" boolean not null default false, "paused_at" timestamptz null, "resumes_at" timestamptz null, "seats" int null, "customer_cancellation_reason" text null, "customer_cancellation_comment" text null, "metadata" jsonb not null, "pending_update" jsonb null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "subscriptions_product_id_index" on "billing"."subscriptions" ("product_id");`);
    this.addSql(`create index "subscriptions_customer_id_index" on "billing"."subscriptions" ("customer_id");`);
    this.addSql(
      `create index "subscriptions_organization_id_started_at_index" on "billing"."subscriptions" ("organization_id", "started_at");`,
    );
    this.addSql(
      `alter table "billing"."subscriptions" add constraint "subscriptions_recurring_interval_check" check ("recurring_interval" in ('day', 'week', 'month', 'year'));`,
    );
    this.addSql(
      `alter table "billing"."subscriptions" add constraint "subscriptions_status_check" check ("status" in ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'));`,
    );
    this.addSql(
      `alter table "billing"."subscriptions" add constraint "subscriptions_customer_cancellation_reason_check" check ("customer_cancellation_reason" in ('customer_service', 'low_quality', 'missing_features', 'switched_service', 'too_complex', 'too_expensive', 'unused', 'other'));`,
    );
    this.addSql(
      `create unique index "customers_organization_id_email_live_unique" on "billing"."customers" ("organization_id", lower("email")) where "deleted_at" is null and "email" is not null;`,
    );
    this.addSql(
      `create unique index "customers_organization_id_external_id_unique" on "billing"."customers" ("organization_id", "external_id") where "external_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'events',
      'subscriptions',
      'customer_sessions',
      'customers',
      'discounts',
      'product_prices',
      'products',
    ]) {
      this.addSql(`drop table if exists "billing"."${table}" cascade;`);
    }
  }
}
