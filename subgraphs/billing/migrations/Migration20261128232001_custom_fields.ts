import { Migration } from '@mikro-orm/migrations';

/** Custom fields (docs/custom-fields.md): a live slug is unique in its organization. */
export class Migration20261128232001_custom_fields extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."custom_fields" (
      "id" uuid not null primary key, "organization_id" uuid not null, "type" text not null, "slug" text not null,
      "name" text not null, "properties" jsonb not null default '{}', "metadata" jsonb not null default '{}',
      "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null);`);
    this.addSql(
      `create unique index if not exists "custom_fields_organization_id_slug_live_unique" on "billing"."custom_fields" ("organization_id", "slug") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."custom_fields";`);
  }
}
