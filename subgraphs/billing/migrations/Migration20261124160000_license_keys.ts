import { Migration } from '@mikro-orm/migrations';

/**
 * License keys (issue 12): one key per benefit grant, issued by the `license_keys` benefit, and the
 * activations of each key. `benefit_id` and `grant_id` are plain uuids: the benefits tables belong to
 * another folder and may arrive in another order; `license_keys_grant_id_unique` is what makes issuing
 * idempotent per grant. Deactivated activations stay (soft delete) as Polar keeps them.
 */
export class Migration20261124160000_license_keys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing"."license_keys" (
      "id" uuid not null, "organization_id" uuid not null,
      "customer_id" uuid not null references "billing"."customers" ("id") on delete cascade,
      "benefit_id" uuid not null, "grant_id" uuid not null, "key" text not null,
      "status" text not null check ("status" in ('granted', 'revoked', 'disabled')),
      "limit_activations" int null check ("limit_activations" > 0), "usage" int not null default 0,
      "limit_usage" int null check ("limit_usage" > 0), "validations" int not null default 0,
      "last_validated_at" timestamptz null, "expires_at" timestamptz null,
      "created_at" timestamptz not null, "modified_at" timestamptz null,
      primary key ("id"),
      constraint "license_keys_grant_id_unique" unique ("grant_id"),
      constraint "license_keys_organization_id_key_unique" unique ("organization_id", "key"));`);
    this.addSql(
      `create index "license_keys_organization_id_created_at_index" on "billing"."license_keys" ("organization_id", "created_at");`,
    );
    this.addSql(`create index "license_keys_benefit_id_index" on "billing"."license_keys" ("benefit_id");`);
    this.addSql(`create table "billing"."license_key_activations" (
      "id" uuid not null,
      "license_key_id" uuid not null references "billing"."license_keys" ("id") on delete cascade,
      "label" text not null, "conditions" jsonb not null default '{}', "meta" jsonb not null default '{}',
      "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null,
      primary key ("id"));`);
    this.addSql(
      `create index "license_key_activations_live_index" on "billing"."license_key_activations" ("license_key_id") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "billing"."license_key_activations";');
    this.addSql('drop table if exists "billing"."license_keys";');
  }
}
