import { Migration } from '@mikro-orm/migrations';

/**
 * The seats family of `/v1/metrics/` reads an organization's seats (docs/metrics.md#seats); customer seats had no
 * index by organization, so each request scanned every organization's seats.
 */
export class Migration20261129050001_metric_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "customer_seats_organization_id_created_at_index" on "billing"."customer_seats" ("organization_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."customer_seats_organization_id_created_at_index";`);
  }
}
