import { Migration } from '@mikro-orm/migrations';

/**
 * Download counters of a downloadables grant's files (docs/license-keys-and-files.md#download-statistics):
 * one row per grant and file, counted when the customer's signed link is followed. Polar keeps
 * `downloadables.downloaded`; here the grant is the downloadable, so the counter is keyed by it.
 */
export class Migration20261128221000_downloadable_downloads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."downloadable_downloads" (
      "grant_id" uuid not null, "file_id" uuid not null, "downloaded" int not null default 0,
      "last_downloaded_at" timestamptz null, primary key ("grant_id", "file_id"));`);
    this.addSql(
      `create index if not exists "downloadable_downloads_file_id_index" on "billing"."downloadable_downloads" ("file_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."downloadable_downloads";`);
  }
}
