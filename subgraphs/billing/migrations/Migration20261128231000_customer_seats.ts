import { Migration } from '@mikro-orm/migrations';

/**
 * Seats of a seat-based subscription or order (docs/customer-seats.md): who holds each one, its
 * invitation (only the token's HMAC is kept) and its history (pending, claimed, revoked). A revoked row
 * is reused by the next assignment, as Polar does, so a container holds about as many rows as seats.
 */
export class Migration20261128231000_customer_seats extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."customer_seats" (
      "id" uuid not null primary key, "organization_id" uuid not null,
      "subscription_id" uuid null, "order_id" uuid null, "billing_customer_id" uuid not null,
      "status" text not null, "customer_id" uuid null, "member_id" uuid null, "email" text null,
      "invitation_token_hash" text null, "invitation_token_expires_at" timestamptz null,
      "claimed_at" timestamptz null, "revoked_at" timestamptz null, "seat_metadata" jsonb not null default '{}',
      "created_at" timestamptz not null, "modified_at" timestamptz null,
      constraint "customer_seats_one_container" check (("subscription_id" is null) <> ("order_id" is null)));`);
    this.addSql(
      `create index if not exists "customer_seats_subscription_index" on "billing"."customer_seats" ("subscription_id") where "subscription_id" is not null;`,
    );
    this.addSql(
      `create index if not exists "customer_seats_order_index" on "billing"."customer_seats" ("order_id") where "order_id" is not null;`,
    );
    this.addSql(
      `create unique index if not exists "customer_seats_invitation_token_unique" on "billing"."customer_seats" ("invitation_token_hash") where "invitation_token_hash" is not null;`,
    );
    this.addSql(
      `create index if not exists "customer_seats_customer_index" on "billing"."customer_seats" ("customer_id") where "customer_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."customer_seats";`);
  }
}
