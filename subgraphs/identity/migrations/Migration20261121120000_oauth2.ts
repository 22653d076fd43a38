import { Migration } from '@mikro-orm/migrations';

/**
 * The OAuth 2.0 / OpenID Connect provider: registered clients, authorization codes, issued tokens,
 * remembered consent and the id_token signing keys. Every credential column holds an HMAC-SHA256
 * hash; the signing keys' private halves are encrypted.
 */
export class Migration20261121120000_oauth2 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "identity"."oauth2_clients" ("id" uuid not null, "client_id" text not null, "client_secret_hash" text null, "registration_token_hash" text not null, "owner_user_id" uuid null, "client_name" text not null, "redirect_uris" text[] not null, "token_endpoint_auth_method" text not null, "grant_types" text[] not null, "response_types" text[] not null, "scopes" text[] not null, "client_uri" text null, "logo_uri" text null, "tos_uri" text null, "policy_uri" text null, "default_sub_type" text not null default 'user', "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_clients" add constraint "oauth2_clients_client_id_unique" unique ("client_id");`,
    );
    this.addSql(
      `alter table "identity"."oauth2_clients" add constraint "oauth2_clients_registration_token_hash_unique" unique ("registration_token_hash");`,
    );
    this.addSql(`create index "oauth2_clients_owner_user_id_index" on "identity"."oauth2_clients" ("owner_user_id");`);
    this.addSql(
      `alter table "identity"."oauth2_clients" add constraint "oauth2_clients_auth_method_check" check ("token_endpoint_auth_method" in ('client_secret_basic', 'client_secret_post', 'none'));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_clients" add constraint "oauth2_clients_default_sub_type_check" check ("default_sub_type" in ('user', 'organization'));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_clients" add constraint "oauth2_clients_secret_check" check (("token_endpoint_auth_method" = 'none') = ("client_secret_hash" is null));`,
    );

    this.addSql(
      `create table "identity"."oauth2_authorization_codes" ("id" uuid not null, "code_hash" text not null, "oauth2_client_id" uuid not null references "identity"."oauth2_clients" ("id"), "user_id" uuid not null, "sub_type" text not null, "sub" uuid not null, "scopes" text[] not null, "redirect_uri" text not null, "code_challenge" text null, "code_challenge_method" text null, "nonce" text null, "auth_time" timestamptz not null, "expires_at" timestamptz not null, "consumed_at" timestamptz null, "replayed_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_authorization_codes" add constraint "oauth2_authorization_codes_code_hash_unique" unique ("code_hash");`,
    );
    this.addSql(
      `create index "oauth2_authorization_codes_oauth2_client_id_index" on "identity"."oauth2_authorization_codes" ("oauth2_client_id");`,
    );
    this.addSql(
      `alter table "identity"."oauth2_authorization_codes" add constraint "oauth2_authorization_codes_sub_type_check" check ("sub_type" in ('user', 'organization'));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_authorization_codes" add constraint "oauth2_authorization_codes_pkce_method_check" check ("code_challenge_method" is null or "code_challenge_method" in ('S256', 'plain'));`,
    );

    this.addSql(
      `create table "identity"."oauth2_tokens" ("id" uuid not null, "family_id" uuid not null, "oauth2_client_id" uuid not null references "identity"."oauth2_clients" ("id"), "sub_type" text not null, "user_id" uuid not null, "organization_id" uuid null, "access_token_hash" text not null, "refresh_token_hash" text null, "scopes" text[] not null, "access_token_expires_at" timestamptz not null, "refresh_token_expires_at" timestamptz null, "access_token_revoked_at" timestamptz null, "refresh_token_revoked_at" timestamptz null, "auth_time" timestamptz not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_tokens" add constraint "oauth2_tokens_access_token_hash_unique" unique ("access_token_hash");`,
    );
    this.addSql(
      `alter table "identity"."oauth2_tokens" add constraint "oauth2_tokens_refresh_token_hash_unique" unique ("refresh_token_hash");`,
    );
    this.addSql(`create index "oauth2_tokens_family_id_index" on "identity"."oauth2_tokens" ("family_id");`);
    this.addSql(
      `create index "oauth2_tokens_oauth2_client_id_index" on "identity"."oauth2_tokens" ("oauth2_client_id");`,
    );
    this.addSql(`create index "oauth2_tokens_user_id_index" on "identity"."oauth2_tokens" ("user_id");`);
    this.addSql(
      `alter table "identity"."oauth2_tokens" add constraint "oauth2_tokens_sub_type_check" check ("sub_type" in ('user', 'organization') and (("sub_type" = 'organization') = ("organization_id" is not null)));`,
    );

    this.addSql(
      `create table "identity"."oauth2_grants" ("id" uuid not null, "oauth2_client_id" uuid not null references "identity"."oauth2_clients" ("id"), "user_id" uuid not null, "sub_type" text not null, "sub" uuid not null, "scopes" text[] not null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_grants" add constraint "oauth2_grants_oauth2_client_id_user_id_sub_type_sub_unique" unique ("oauth2_client_id", "user_id", "sub_type", "sub");`,
    );
    this.addSql(`create index "oauth2_grants_user_id_index" on "identity"."oauth2_grants" ("user_id");`);

    this.addSql(
      `create table "identity"."oauth2_signing_keys" ("id" uuid not null, "kid" text not null, "algorithm" text not null default 'RS256', "public_jwk" jsonb not null, "private_jwk_encrypted" text not null, "status" text not null default 'active', "created_at" timestamptz not null, "retired_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "identity"."oauth2_signing_keys" add constraint "oauth2_signing_keys_kid_unique" unique ("kid");`,
    );
    this.addSql(
      `alter table "identity"."oauth2_signing_keys" add constraint "oauth2_signing_keys_status_check" check ("status" in ('active', 'retired'));`,
    );
    // At most one active key, even when two processes create the first one at the same moment.
    this.addSql(
      `create unique index "oauth2_signing_keys_one_active" on "identity"."oauth2_signing_keys" ("status") where "status" = 'active';`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'oauth2_signing_keys',
      'oauth2_grants',
      'oauth2_tokens',
      'oauth2_authorization_codes',
      'oauth2_clients',
    ]) {
      this.addSql(`drop table if exists "identity"."${table}" cascade;`);
    }
  }
}
