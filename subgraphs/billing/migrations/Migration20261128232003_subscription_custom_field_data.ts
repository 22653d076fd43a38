import { Migration } from '@mikro-orm/migrations';

/** A subscription keeps the answers its checkout gave to the product's custom fields (docs/custom-fields.md). */
export class Migration20261128232003_subscription_custom_field_data extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "billing"."subscriptions" add column if not exists "custom_field_data" jsonb not null default '{}';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."subscriptions" drop column if exists "custom_field_data";`);
  }
}
