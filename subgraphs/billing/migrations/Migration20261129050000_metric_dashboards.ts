import { Migration } from '@mikro-orm/migrations';

/** Metric dashboards (docs/metrics.md#dashboards): named lists of metric slugs, per organization. */
export class Migration20261129050000_metric_dashboards extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."metric_dashboards" (
      "id" uuid not null primary key, "organization_id" uuid not null, "name" text not null,
      "metrics" jsonb not null default '[]', "created_at" timestamptz not null, "modified_at" timestamptz null);`);
    this.addSql(
      `create index if not exists "metric_dashboards_organization_id_created_at_index" on "billing"."metric_dashboards" ("organization_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."metric_dashboards";`);
  }
}
