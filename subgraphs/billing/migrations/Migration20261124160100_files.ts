import { Migration } from '@mikro-orm/migrations';

/**
 * Files (issue 12, the `downloadables` benefit): the file records of Polar's `/v1/files/` and their
 * bytes. There is no object store: the bytes of each uploaded part live in `file_chunks` (bytea, at
 * most 512 KiB a row so one row always fits one internal request), written through signed upload links
 * and read back through signed download links. `parts` is the upload plan the client declared.
 */
export class Migration20261124160100_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing"."files" (
      "id" uuid not null, "organization_id" uuid not null, "name" text not null, "path" text not null,
      "mime_type" text not null, "size" bigint not null check ("size" >= 0),
      "service" text not null check ("service" in ('downloadable', 'product_media', 'organization_avatar')),
      "version" text null, "upload_id" text not null, "parts" jsonb not null default '[]',
      "checksum_sha256_base64" text null, "checksum_sha256_hex" text null, "checksum_etag" text null,
      "storage_version" text null, "last_modified_at" timestamptz null,
      "is_uploaded" boolean not null default false, "is_enabled" boolean not null default true,
      "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null,
      primary key ("id"));`);
    this.addSql(
      `create index "files_organization_id_created_at_index" on "billing"."files" ("organization_id", "created_at");`,
    );
    this.addSql(`create table "billing"."file_chunks" (
      "file_id" uuid not null references "billing"."files" ("id") on delete cascade,
      "part_number" int not null, "seq" int not null, "data" bytea not null,
      primary key ("file_id", "part_number", "seq"));`);
    this.addSql(`create table "billing"."file_parts" (
      "file_id" uuid not null references "billing"."files" ("id") on delete cascade,
      "part_number" int not null, "chunks" int not null, "size" bigint not null,
      "checksum_sha256_base64" text not null, "etag" text not null, "uploaded_at" timestamptz not null,
      primary key ("file_id", "part_number"));`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "billing"."file_parts";');
    this.addSql('drop table if exists "billing"."file_chunks";');
    this.addSql('drop table if exists "billing"."files";');
  }
}
