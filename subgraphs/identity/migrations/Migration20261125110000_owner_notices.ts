import { Migration } from '@mikro-orm/migrations';

/**
 * Owner e-mails promised by a change of this subgraph (a leaked token revoked), written in that change's
 * transaction and handed to the mail outbox by kit/email/owner-notices.ts' relay, which claims a notice
 * with a lease (`claimed_until`) and sets `emailed_at` once the outbox has it.
 */
export class Migration20261125110000_owner_notices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "identity"."owner_notices" (
      "id" uuid not null primary key,
      "key" text not null unique,
      "email" jsonb not null,
      "created_at" timestamptz not null,
      "claimed_until" timestamptz null,
      "emailed_at" timestamptz null
    );`);
    this.addSql(
      `create index if not exists "owner_notices_pending_index" on "identity"."owner_notices" ("created_at") where "emailed_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "identity"."owner_notices";`);
  }
}
