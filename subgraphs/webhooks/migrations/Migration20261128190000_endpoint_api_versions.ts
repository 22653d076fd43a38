import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints gain `api_version` (null: created without one, the 0.4x way) and each event its
 * envelope per API version (docs/webhooks.md#api-versions). A message remembers the version it was
 * queued for, so its retries and redeliveries send the same bytes even after the endpoint's version
 * changes; `events.payload` stays the unversioned envelope.
 */
export class Migration20261128190000_endpoint_api_versions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhooks"."endpoints" add column if not exists "api_version" text null;`);
    this.addSql(`alter table "webhooks"."messages" add column if not exists "api_version" text null;`);
    this.addSql(
      `create table if not exists "webhooks"."event_bodies" ("event_id" uuid not null references "webhooks"."events" ("id"), "api_version" text not null, "body" text not null, primary key ("event_id", "api_version"));`,
    );
    // An endpoint without a version receives only the types the 0.4x SDKs know (event-versions.ts, as of
    // this migration): the newer ones it subscribed to before are dropped, so it shows what it gets.
    this.addSql(
      `update "webhooks"."endpoints" set "events" = array(select t from unnest("events") with ordinality u(t, i) where t <> all('${NEWER_THAN_UNVERSIONED}'::text[]) order by i) where "api_version" is null and "events" && '${NEWER_THAN_UNVERSIONED}'::text[];`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "webhooks"."event_bodies";');
    this.addSql('alter table "webhooks"."messages" drop column if exists "api_version";');
    this.addSql('alter table "webhooks"."endpoints" drop column if exists "api_version";');
  }
}

const NEWER_THAN_UNVERSIONED = `{${[
  'subscription.cycled',
  'subscription.paused',
  'subscription.resumed',
  'discount.created',
  'discount.updated',
  'discount.deleted',
].join(',')}}`;
