import { Migration } from '@mikro-orm/migrations';

/**
 * Pending e-mail changes of the customer portal (docs/customer-email-update.md): the new address and the
 * HMAC of the token e-mailed to it, 30 minutes; at most one per customer (a new request replaces it).
 */
export class Migration20261128233100_customer_email_verifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."customer_email_verifications" (
      "id" uuid not null primary key, "customer_id" uuid not null unique, "organization_id" uuid not null,
      "email" text not null, "token_hash" text not null unique, "expires_at" timestamptz not null,
      "created_at" timestamptz not null);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."customer_email_verifications";`);
  }
}
