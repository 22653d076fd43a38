import { Migration } from '@mikro-orm/migrations';

/**
 * The e-mail outbox (docs/email.md): a message is a row written in the transaction that
 * calls for it, and the `email.send` job hands it to the mailer (SMTP or the log), counting attempts.
 * Customer portal sign-in codes (hashed at rest, 30 minutes, single use) are the first user.
 */
export class Migration20261124170000_outgoing_emails extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "billing"."outgoing_emails" ("id" uuid not null primary key, "organization_id" uuid null, "kind" text not null, "to_address" text not null, "subject" text not null, "text_body" text not null, "html_body" text null, "status" text not null default 'pending' check ("status" in ('pending', 'sent', 'failed')), "attempts" int not null default 0, "last_error" text null, "transport" text null, "created_at" timestamptz not null, "sent_at" timestamptz null);`,
    );
    this.addSql(
      `create index if not exists "outgoing_emails_to_created_idx" on "billing"."outgoing_emails" ("to_address", "created_at");`,
    );
    this.addSql(
      `create table if not exists "billing"."customer_session_codes" ("id" uuid not null primary key, "customer_id" uuid not null, "organization_id" uuid not null, "email" text not null, "code_hash" text not null unique, "expires_at" timestamptz not null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `create index if not exists "customer_session_codes_customer_idx" on "billing"."customer_session_codes" ("customer_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "billing"."customer_session_codes";');
    this.addSql('drop table if exists "billing"."outgoing_emails";');
  }
}
