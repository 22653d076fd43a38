import { Migration } from '@mikro-orm/migrations';

/** Users, organizations, memberships and the stored hashes of their credentials. */
export class Migration20261121000000_identity_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity"."users" ("id" uuid not null, "email" text not null, "email_verified" boolean not null default false, "password_hash" text not null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "identity"."users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(
      `create table "identity"."organizations" ("id" uuid not null, "name" text not null, "slug" text not null, "avatar_url" text null, "email" text null, "website" text null, "socials" jsonb not null, "status" text not null default 'created', "details" jsonb null, "details_submitted_at" timestamptz null, "country" text null, "default_presentment_currency" text not null default 'usd', "default_tax_behavior" text not null default 'location', "feature_settings" jsonb not null, "subscription_settings" jsonb not null, "customer_email_settings" jsonb not null, "customer_portal_settings" jsonb not null, "dispute_settings" jsonb not null, "notification_settings" jsonb not null, "embed_hosts" jsonb not null, "embed_hosts_enforced" boolean not null default false, "sso_enforced" boolean not null default false, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "identity"."organizations" add constraint "organizations_slug_unique" unique ("slug");`);
    this.addSql(
      `alter table "identity"."organizations" add constraint "organizations_status_check" check ("status" in ('created', 'review', 'snoozed', 'denied', 'active', 'blocked', 'offboarding', 'offboarded'));`,
    );

    this.addSql(
      `create table "identity"."memberships" ("id" uuid not null, "user_id" uuid not null, "organization_id" uuid not null, "role" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "memberships_user_id_index" on "identity"."memberships" ("user_id");`);
    this.addSql(`create index "memberships_organization_id_index" on "identity"."memberships" ("organization_id");`);
    this.addSql(
      `alter table "identity"."memberships" add constraint "memberships_user_id_organization_id_unique" unique ("user_id", "organization_id");`,
    );
    this.addSql(
      `alter table "identity"."memberships" add constraint "memberships_role_check" check ("role" in ('owner', 'admin', 'member'));`,
    );

    this.addSql(
      `create table "identity"."organization_access_tokens" ("id" uuid not null, "organization_id" uuid not null, "token_hash" text not null, "comment" text not null default '', "scopes" text[] not null, "expires_at" timestamptz null, "last_used_at" timestamptz null, "deleted_at" timestamptz null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "organization_access_tokens_organization_id_index" on "identity"."organization_access_tokens" ("organization_id");`,
    );
    this.addSql(
      `alter table "identity"."organization_access_tokens" add constraint "organization_access_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `create table "identity"."personal_access_tokens" ("id" uuid not null, "user_id" uuid not null, "token_hash" text not null, "comment" text not null default '', "scopes" text[] not null, "expires_at" timestamptz null, "last_used_at" timestamptz null, "deleted_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "personal_access_tokens_user_id_index" on "identity"."personal_access_tokens" ("user_id");`,
    );
    this.addSql(
      `alter table "identity"."personal_access_tokens" add constraint "personal_access_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `create table "identity"."user_sessions" ("id" uuid not null, "user_id" uuid not null, "token_hash" text not null, "scopes" text[] not null, "expires_at" timestamptz not null, "deleted_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "user_sessions_user_id_index" on "identity"."user_sessions" ("user_id");`);
    this.addSql(
      `alter table "identity"."user_sessions" add constraint "user_sessions_token_hash_unique" unique ("token_hash");`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'user_sessions',
      'personal_access_tokens',
      'organization_access_tokens',
      'memberships',
      'organizations',
      'users',
    ]) {
      this.addSql(`drop table if exists "identity"."${table}" cascade;`);
    }
  }
}
