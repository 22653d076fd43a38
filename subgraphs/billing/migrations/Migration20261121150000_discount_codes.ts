import { Migration } from '@mikro-orm/migrations';

/**
 * Discount codes are unique per organization case-insensitively among live (not deleted) discounts,
 * so a deleted discount's code can be used again; and the per-customer redemption limit.
 */
export class Migration20261121150000_discount_codes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."discounts" drop constraint if exists "discounts_organization_id_code_unique";`);
    this.addSql(
      `create unique index "discounts_organization_id_code_live_unique" on "billing"."discounts" ("organization_id", lower("code")) where "deleted_at" is null and "code" is not null;`,
    );
    this.addSql(`alter table "billing"."discounts" add column "max_redemptions_per_customer" int null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."discounts" drop column if exists "max_redemptions_per_customer";`);
    this.addSql(`drop index if exists "billing"."discounts_organization_id_code_live_unique";`);
    this.addSql(
      `alter table "billing"."discounts" add constraint "discounts_organization_id_code_unique" unique ("organization_id", "code");`,
    );
  }
}
