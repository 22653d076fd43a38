import { Migration } from '@mikro-orm/migrations';

/**
 * Background work wakes on notifications instead of polling (kit/background/background-work.ts): these triggers notify
 * the channel `background_work` (kit/database/work-signals.ts) in the transaction of a write that
 * gives a loop something to do, or brings its next due instant closer; PostgreSQL delivers the
 * notification at commit, to every process listening on this database, once per transaction and topic.
 *
 * - `billing.outbox`: an event is recorded (the outbox relay).
 * - `billing.jobs`: a job is queued or rescheduled.
 * - `billing.checkouts`: an open checkout is written (its expiry).
 * - `billing.renewals`: a subscription or renewal order becomes due sooner (a period end that moves
 *   earlier, a status or resume date that changes, a renewal order's next attempt). A period end that
 *   moves later (a renewal) notifies nothing: the scheduler looks at its old instant and finds nothing.
 * - `billing.owner_notices`: an owner notice is written.
 */
export class Migration20261127100000_work_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "billing"."notify_background_work"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('background_work', tg_argv[0]);
        return null;
      end $$;`);
    // Per statement, and only when a row was inserted that can fall due: bulk inserts pay one check.
    this.addSql(`create or replace function "billing"."notify_subscriptions_inserted"() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from new_rows where status in ('active', 'trialing', 'paused')) then
          perform pg_notify('background_work', 'billing.renewals');
        end if;
        return null;
      end $$;`);
    this.addSql(
      `create trigger "events_notify_outbox" after insert on "billing"."events" for each statement execute function "billing"."notify_background_work"('billing.outbox');`,
    );
    this.addSql(
      `create trigger "jobs_notify_queued" after insert or update of "run_at" on "billing"."jobs" for each row when (new."status" = 'pending') execute function "billing"."notify_background_work"('billing.jobs');`,
    );
    this.addSql(
      `create trigger "checkouts_notify_expiry" after insert or update of "status", "expires_at" on "billing"."checkouts" for each row when (new."status" = 'open') execute function "billing"."notify_background_work"('billing.checkouts');`,
    );
    this.addSql(
      `create trigger "subscriptions_notify_renewals_insert" after insert on "billing"."subscriptions" referencing new table as new_rows for each statement execute function "billing"."notify_subscriptions_inserted"();`,
    );
    this.addSql(
      `create trigger "subscriptions_notify_renewals_update" after update of "status", "current_period_end", "resumes_at" on "billing"."subscriptions" for each row
         when (new."status" is distinct from old."status" or new."resumes_at" is distinct from old."resumes_at"
               or new."current_period_end" < old."current_period_end")
         execute function "billing"."notify_background_work"('billing.renewals');`,
    );
    this.addSql(
      `create trigger "orders_notify_renewals" after insert or update of "status", "next_payment_attempt_at" on "billing"."orders" for each row
         when (new."status" = 'pending' and new."next_payment_attempt_at" is not null and new."billing_reason" = 'subscription_cycle')
         execute function "billing"."notify_background_work"('billing.renewals');`,
    );
    this.addSql(
      `create trigger "owner_notices_notify" after insert on "billing"."owner_notices" for each row execute function "billing"."notify_background_work"('billing.owner_notices');`,
    );
  }

  override async down(): Promise<void> {
    for (const [table, trigger] of [
      ['events', 'events_notify_outbox'],
      ['jobs', 'jobs_notify_queued'],
      ['checkouts', 'checkouts_notify_expiry'],
      ['subscriptions', 'subscriptions_notify_renewals_insert'],
      ['subscriptions', 'subscriptions_notify_renewals_update'],
      ['orders', 'orders_notify_renewals'],
      ['owner_notices', 'owner_notices_notify'],
    ])
      this.addSql(`drop trigger if exists "${trigger}" on "billing"."${table}";`);
    this.addSql('drop function if exists "billing"."notify_subscriptions_inserted"();');
    this.addSql('drop function if exists "billing"."notify_background_work"();');
  }
}
