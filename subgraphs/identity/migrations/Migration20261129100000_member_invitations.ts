import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations to join an organization sent to an e-mail without an account (docs/dashboard.md#members): one
 * pending invitation per organization and address (a second invite replaces its role, token and expiry), the
 * link's token stored only as its HMAC, spent by the sign-up that accepts it (the row is deleted then).
 */
export class Migration20261129100000_member_invitations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "identity"."member_invitations" (
      "id" uuid not null primary key,
      "organization_id" uuid not null,
      "email" text not null,
      "role" text not null,
      "invited_by" uuid null,
      "token_hash" text not null unique,
      "created_at" timestamptz not null,
      "expires_at" timestamptz not null,
      constraint "member_invitations_organization_email_unique" unique ("organization_id", "email")
    );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "identity"."member_invitations";');
  }
}
