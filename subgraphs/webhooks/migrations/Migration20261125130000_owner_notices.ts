import { Migration } from '@mikro-orm/migrations';

/**
 * The e-mail to the owners of a disabled endpoint is written in the disable's transaction as an owner
 * notice (kit/email/owner-notices.ts, the same outbox identity and billing keep), claimed with a lease by
 * the relay. `webhooks.notifications` stays the record of disables, without its `emailed_at`. A
 * notification still waiting for its e-mail when this runs (a disable within the last poll before the
 * upgrade) is not e-mailed.
 */
export class Migration20261125130000_owner_notices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "webhooks"."owner_notices" (
      "id" uuid not null primary key,
      "key" text not null unique,
      "email" jsonb not null,
      "created_at" timestamptz not null,
      "claimed_until" timestamptz null,
      "emailed_at" timestamptz null
    );`);
    this.addSql(
      `create index if not exists "owner_notices_pending_index" on "webhooks"."owner_notices" ("created_at") where "emailed_at" is null;`,
    );
    this.addSql('drop index if exists "webhooks"."notifications_not_emailed_index";');
    this.addSql('alter table "webhooks"."notifications" drop column if exists "emailed_at";');
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhooks"."owner_notices";`);
  }
}
