import { Migration } from '@mikro-orm/migrations';

/**
 * Customer e-mails (docs/email.md):
 * - `outgoing_emails.status` gains `not_delivered` (the sandbox keeps a message to someone who is not a
 *   member of the organization, and says why in `status_reason`); `from_name` is the display name of
 *   the sender (a customer e-mail is in its organization's name).
 * - `customer_email_reminders`: one row per reminder kind and subject (a subscription, a card), moved
 *   by every change of its subject; due work sends it once per anchor (period end, trial end, card
 *   expiry). A row written or moved notifies `billing.reminders`, which wakes the due-work sweep.
 */
export class Migration20261128100000_customer_emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."outgoing_emails" drop constraint if exists "outgoing_emails_status_check";`);
    this.addSql(
      `alter table "billing"."outgoing_emails" add constraint "outgoing_emails_status_check" check ("status" in ('pending', 'sent', 'failed', 'not_delivered'));`,
    );
    this.addSql(`alter table "billing"."outgoing_emails" add column if not exists "status_reason" text null;`);
    this.addSql(`alter table "billing"."outgoing_emails" add column if not exists "from_name" text null;`);
    this.addSql(
      `create index if not exists "outgoing_emails_organization_created_idx" on "billing"."outgoing_emails" ("organization_id", "created_at" desc);`,
    );
    this.addSql(
      `create table if not exists "billing"."customer_email_reminders" ("kind" text not null, "subject_id" uuid not null, "organization_id" uuid not null, "anchor" timestamptz not null, "due_at" timestamptz not null, "sent_anchor" timestamptz null, "payload" jsonb not null, primary key ("kind", "subject_id"));`,
    );
    this.addSql(
      `create index if not exists "customer_email_reminders_due_idx" on "billing"."customer_email_reminders" ("due_at") where "sent_anchor" is distinct from "anchor";`,
    );
    this.addSql(
      `create trigger "customer_email_reminders_notify_insert" after insert on "billing"."customer_email_reminders" for each row execute function "billing"."notify_background_work"('billing.reminders');`,
    );
    // A change of its subject rewrites the row; only a due instant that moved wakes the sweep.
    this.addSql(
      `create trigger "customer_email_reminders_notify_update" after update of "due_at" on "billing"."customer_email_reminders" for each row when (old.due_at is distinct from new.due_at) execute function "billing"."notify_background_work"('billing.reminders');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "billing"."customer_email_reminders";');
    this.addSql(`alter table "billing"."outgoing_emails" drop column if exists "status_reason";`);
    this.addSql(`alter table "billing"."outgoing_emails" drop column if exists "from_name";`);
  }
}
