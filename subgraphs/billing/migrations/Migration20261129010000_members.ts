import { Migration } from '@mikro-orm/migrations';

/**
 * Members of a customer (docs/members.md): the people who act for it, each with a role (owner,
 * billing_manager, member). A customer has at most one live owner; e-mail and external id are unique per
 * customer among live members. Deletion is soft. Every live customer with an e-mail gets its owner here
 * (the customer's e-mail, name and external id, created when the customer was); new customers get theirs
 * when they are created (members/owner-member.ts).
 */
export class Migration20261129010000_members extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."members" (
      "id" uuid not null primary key, "organization_id" uuid not null, "customer_id" uuid not null,
      "email" text not null, "name" text null, "external_id" text null, "role" text not null,
      "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null,
      constraint "members_role_check" check ("role" in ('owner', 'billing_manager', 'member')));`);
    this.addSql(
      `create index if not exists "members_customer_index" on "billing"."members" ("customer_id", "created_at", "id");`,
    );
    this.addSql(
      `create unique index if not exists "members_customer_email_unique" on "billing"."members" ("customer_id", lower("email")) where "deleted_at" is null;`,
    );
    this.addSql(
      `create unique index if not exists "members_customer_external_id_unique" on "billing"."members" ("customer_id", "external_id") where "deleted_at" is null and "external_id" is not null;`,
    );
    this.addSql(
      `create unique index if not exists "members_one_owner" on "billing"."members" ("customer_id") where "deleted_at" is null and "role" = 'owner';`,
    );
    this.addSql(`insert into "billing"."members"
      ("id", "organization_id", "customer_id", "email", "name", "external_id", "role", "created_at")
      select gen_random_uuid(), c."organization_id", c."id", c."email", c."name", c."external_id", 'owner', c."created_at"
      from "billing"."customers" c
      where c."deleted_at" is null and c."email" is not null
        and not exists (select 1 from "billing"."members" m where m."customer_id" = c."id" and m."deleted_at" is null and m."role" = 'owner');`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."members";`);
  }
}
