import { Migration } from '@mikro-orm/migrations';

/**
 * `application_type` of OAuth clients (OIDC Registration §2, RFC 7591 metadata): only a `native` app
 * may receive a loopback redirect on another port than the one registered (RFC 8252 §7.3). Clients
 * registered before were all treated as native there; they become `web`, the specification's default,
 * and match exactly, as Polar does.
 */
export class Migration20261123000000_oauth2_application_type extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "identity"."oauth2_clients" add column "application_type" text not null default 'web', add constraint "oauth2_clients_application_type_check" check ("application_type" in ('web', 'native'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "identity"."oauth2_clients" drop column "application_type";`);
  }
}
