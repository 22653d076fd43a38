import { Migration } from '@mikro-orm/migrations';

/**
 * The advance lease of a sandbox clock (docs/recurring.md): the advance that runs an organization's due work holds `advance_token` until
 * `advancing_until` (the database's time), claimed and renewed by short statements of its own, so no
 * connection is held while it works or while another advance waits. An advance that crashed leaves a
 * lease that expires, and the next advance takes it over.
 */
export class Migration20261127100000_sandbox_clock_lease extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "billing"."sandbox_clocks" add column if not exists "advance_token" uuid null, add column if not exists "advancing_until" timestamptz null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "billing"."sandbox_clocks" drop column if exists "advance_token", drop column if exists "advancing_until";`,
    );
  }
}
