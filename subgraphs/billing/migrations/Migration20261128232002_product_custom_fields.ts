import { Migration } from '@mikro-orm/migrations';

/** The custom fields a product's checkout asks (docs/custom-fields.md#on-products), in their order. */
export class Migration20261128232002_product_custom_fields extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."product_custom_fields" (
      "product_id" uuid not null, "custom_field_id" uuid not null, "position" int not null,
      "required" boolean not null default false, primary key ("product_id", "custom_field_id"));`);
    this.addSql(
      `create index if not exists "product_custom_fields_custom_field_id_index" on "billing"."product_custom_fields" ("custom_field_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."product_custom_fields";`);
  }
}
