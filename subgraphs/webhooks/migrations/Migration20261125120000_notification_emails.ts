import { Migration } from '@mikro-orm/migrations';

/**
 * Owner notifications are e-mailed: `emailed_at` records that a notification was handed to the e-mail
 * outbox (kit/email/owner-mailbox.ts). Written in the transaction that disables the endpoint, the row
 * is the webhooks side's outbox; the partial index finds the few not handed over yet.
 */
export class Migration20261125120000_notification_emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhooks"."notifications" add column if not exists "emailed_at" timestamptz null;`);
    // Notifications written before e-mails existed were logged then; they are not sent now.
    this.addSql(`update "webhooks"."notifications" set "emailed_at" = "created_at" where "emailed_at" is null;`);
    this.addSql(
      `create index if not exists "notifications_not_emailed_index" on "webhooks"."notifications" ("created_at") where "emailed_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "webhooks"."notifications_not_emailed_index";');
    this.addSql('alter table "webhooks"."notifications" drop column if exists "emailed_at";');
  }
}
