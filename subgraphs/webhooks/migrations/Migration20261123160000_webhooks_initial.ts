import { Migration } from '@mikro-orm/migrations';

/**
 * Endpoints, events (payload bytes stored once), messages (one per event and endpoint: the thing Polar
 * calls a "webhook event", whose id is the `webhook-id`), deliveries (one row per attempt) and the
 * notifications sent to an organization when its endpoint is disabled.
 */
export class Migration20261123160000_webhooks_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "webhooks"."endpoints" ("id" uuid not null, "organization_id" uuid not null, "url" text not null, "name" text null, "format" text not null default 'raw', "secret" text not null, "events" text[] not null, "enabled" boolean not null default true, "created_at" timestamptz not null, "modified_at" timestamptz null, "deleted_at" timestamptz null, primary key ("id"), constraint "endpoints_format_check" check ("format" in ('raw', 'discord', 'slack')));`,
    );
    this.addSql(
      `create index "endpoints_organization_id_created_at_index" on "webhooks"."endpoints" ("organization_id", "created_at") where "deleted_at" is null;`,
    );
    this.addSql(
      `create table "webhooks"."events" ("id" uuid not null, "position" bigserial not null, "source_event_id" uuid not null, "organization_id" uuid not null, "type" text not null, "object_id" text null, "sequence" bigint not null, "timestamp" timestamptz not null, "payload" text not null, "created_at" timestamptz not null, primary key ("id"), constraint "events_source_event_id_unique" unique ("source_event_id"));`,
    );
    this.addSql(
      `create unique index "events_object_id_sequence_unique" on "webhooks"."events" ("object_id", "sequence") where "object_id" is not null;`,
    );
    this.addSql(
      `create index "events_organization_id_position_index" on "webhooks"."events" ("organization_id", "position");`,
    );
    this.addSql(
      `create table "webhooks"."messages" ("id" uuid not null, "event_id" uuid not null references "webhooks"."events" ("id"), "endpoint_id" uuid not null references "webhooks"."endpoints" ("id"), "organization_id" uuid not null, "event_position" bigint not null, "status" text not null default 'pending', "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "lease_until" timestamptz null, "last_http_code" int null, "created_at" timestamptz not null, "modified_at" timestamptz null, primary key ("id"), constraint "messages_event_endpoint_unique" unique ("event_id", "endpoint_id"), constraint "messages_status_check" check ("status" in ('pending', 'succeeded', 'failed', 'skipped')));`,
    );
    // The worker's claim: due pending messages, and the per-endpoint order guard (an older pending one).
    this.addSql(
      `create index "messages_pending_due_index" on "webhooks"."messages" ("next_attempt_at") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "messages_pending_endpoint_index" on "webhooks"."messages" ("endpoint_id", "event_position") where "status" = 'pending';`,
    );
    this.addSql(
      `create index "messages_endpoint_position_index" on "webhooks"."messages" ("endpoint_id", "event_position");`,
    );
    this.addSql(
      `create table "webhooks"."deliveries" ("id" uuid not null, "message_id" uuid not null references "webhooks"."messages" ("id"), "endpoint_id" uuid not null, "organization_id" uuid not null, "attempt" int not null, "succeeded" boolean not null, "http_code" int null, "response" text null, "duration_ms" int not null, "error" text null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "deliveries_organization_id_created_at_index" on "webhooks"."deliveries" ("organization_id", "created_at");`,
    );
    this.addSql(`create index "deliveries_message_id_index" on "webhooks"."deliveries" ("message_id");`);
    this.addSql(
      `create table "webhooks"."notifications" ("id" uuid not null, "organization_id" uuid not null, "endpoint_id" uuid not null, "kind" text not null, "message" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    for (const table of ['notifications', 'deliveries', 'messages', 'events', 'endpoints'])
      this.addSql(`drop table if exists "webhooks"."${table}";`);
  }
}
