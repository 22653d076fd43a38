import { Migration } from '@mikro-orm/migrations';

/**
 * Benefits, the products they are attached to, their grants, and the trigger that turns the outbox's
 * subscription, order and refund events into durable `benefits.reconcile` jobs (docs/benefits.md). The trigger runs in the transaction that records the event, so a change of a
 * subscription or order and the job that brings its grants in line commit together, whoever wrote them.
 */
export class Migration20261124150000_benefits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing"."benefits" (
      "id" uuid not null, "organization_id" uuid not null, "type" text not null, "description" text not null,
      "visibility" text not null default 'public', "selectable" boolean not null default true,
      "deletable" boolean not null default true, "properties" jsonb not null default '{}',
      "metadata" jsonb not null default '{}', "created_at" timestamptz not null, "modified_at" timestamptz null,
      "deleted_at" timestamptz null, primary key ("id"));`);
    this.addSql(
      `create index "benefits_organization_created_index" on "billing"."benefits" ("organization_id", "created_at", "id") where "deleted_at" is null;`,
    );
    this.addSql(`create table "billing"."product_benefits" (
      "product_id" uuid not null, "benefit_id" uuid not null, "organization_id" uuid not null,
      "position" integer not null, primary key ("product_id", "benefit_id"));`);
    this.addSql(`create index "product_benefits_benefit_index" on "billing"."product_benefits" ("benefit_id");`);
    this.addSql(`create table "billing"."benefit_grants" (
      "id" uuid not null, "organization_id" uuid not null, "benefit_id" uuid not null, "customer_id" uuid not null,
      "subscription_id" uuid null, "order_id" uuid null, "granted_at" timestamptz null, "revoked_at" timestamptz null,
      "properties" jsonb not null default '{}', "error" jsonb null, "created_at" timestamptz not null,
      "modified_at" timestamptz null, primary key ("id"),
      constraint "benefit_grants_scope_check" check (("subscription_id" is null) <> ("order_id" is null)));`);
    // One grant per benefit and subscription (or one-time order): a re-grant revives the same row.
    this.addSql(
      `create unique index "benefit_grants_subscription_unique" on "billing"."benefit_grants" ("subscription_id", "benefit_id") where "subscription_id" is not null;`,
    );
    this.addSql(
      `create unique index "benefit_grants_order_unique" on "billing"."benefit_grants" ("order_id", "benefit_id") where "order_id" is not null;`,
    );
    this.addSql(
      `create index "benefit_grants_organization_created_index" on "billing"."benefit_grants" ("organization_id", "created_at", "id");`,
    );
    this.addSql(`create index "benefit_grants_customer_index" on "billing"."benefit_grants" ("customer_id");`);
    this.addSql(`create index "benefit_grants_benefit_index" on "billing"."benefit_grants" ("benefit_id");`);
    // Due at once whatever clock the job worker reads (`epoch`): the organization's sandbox clock may run
    // ahead of the worker's, and the event's own time is the organization's.
    this.addSql(`create or replace function "billing"."enqueue_benefit_reconcile"() returns trigger language plpgsql as $$
      declare
        source text;
        target text;
        revoke boolean := false;
      begin
        if new.type in ('subscription.created', 'subscription.active', 'subscription.updated', 'subscription.canceled',
                        'subscription.uncanceled', 'subscription.cycled', 'subscription.revoked',
                        'subscription.past_due', 'subscription.paused', 'subscription.resumed') then
          source := 'subscription';
          target := new.payload ->> 'id';
        elsif new.type = 'order.paid' and new.payload ->> 'subscription_id' is null then
          source := 'order';
          target := new.payload ->> 'id';
        elsif new.type in ('refund.created', 'refund.updated', 'order.refunded')
              and coalesce(new.payload ->> 'revoke_benefits', 'false') = 'true' then
          source := 'order';
          target := coalesce(new.payload ->> 'order_id', new.payload ->> 'id');
          revoke := true;
        else
          return new;
        end if;
        if target is null then
          return new;
        end if;
        insert into "billing"."jobs" ("id", "kind", "idempotency_key", "payload", "status", "attempts", "max_attempts", "run_at", "created_at")
        values (gen_random_uuid(), 'benefits.reconcile', 'benefits.reconcile:' || source || ':' || target || ':' || new.id,
                jsonb_build_object('source', source, 'id', target, 'eventId', new.id, 'eventType', new.type, 'revoke', revoke),
                'pending', 0, 10, 'epoch', now())
        on conflict ("idempotency_key") do nothing;
        return new;
      end $$;`);
    this.addSql(
      `create trigger "events_enqueue_benefit_reconcile" after insert on "billing"."events" for each row execute function "billing"."enqueue_benefit_reconcile"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "events_enqueue_benefit_reconcile" on "billing"."events";');
    this.addSql('drop function if exists "billing"."enqueue_benefit_reconcile"();');
    this.addSql('drop table if exists "billing"."benefit_grants";');
    this.addSql('drop table if exists "billing"."product_benefits";');
    this.addSql('drop table if exists "billing"."benefits";');
  }
}
