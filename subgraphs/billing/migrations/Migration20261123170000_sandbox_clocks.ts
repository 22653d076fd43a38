import { Migration } from '@mikro-orm/migrations';

/**
 * The sandbox clock (docs/recurring.md): one row per organization whose clock has been
 * moved, holding how far ahead of the wall clock it runs. No row = the wall clock. Production never
 * writes here.
 */
export class Migration20261123170000_sandbox_clocks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "billing"."sandbox_clocks" ("organization_id" uuid not null primary key, "offset_ms" bigint not null check ("offset_ms" >= 0), "updated_at" timestamptz not null);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "billing"."sandbox_clocks";');
  }
}
