import { Migration } from '@mikro-orm/migrations';

/**
 * Customer meters (docs/usage-billing.md#customer-meters): one row per (customer, meter) the customer has used or
 * been credited; the billing job and the meter credits write them, their units are computed when read.
 */
export class Migration20261129060002_customer_meters extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."customer_meters" (
      "id" uuid not null primary key, "organization_id" uuid not null, "customer_id" uuid not null,
      "meter_id" uuid not null, "created_at" timestamptz not null, "modified_at" timestamptz null,
      constraint "customer_meters_customer_id_meter_id_unique" unique ("customer_id", "meter_id"));`);
    this.addSql(
      `create index if not exists "customer_meters_org_modified" on "billing"."customer_meters" ("organization_id", (coalesce("modified_at", "created_at")) desc, "id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."customer_meters";`);
  }
}
