import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery workers and the owner-notice relay wake on notifications instead of polling
 * (kit/background/background-work.ts, worker/delivery-worker.ts): these triggers notify `background_work`
 * (kit/database/work-signals.ts), delivered at commit to every process listening on this database.
 *
 * - `webhooks.queued`: a message becomes due to send (queued by ingestion, queued again by a
 *   redelivery, or given its retry's time by a failed attempt). A claim's lease notifies nothing: every
 *   worker woken with it sees the lease when it looks, and plans for its end.
 * - `webhooks.owner_notices`: a notice is written (an endpoint disabled). This replaces the channel
 *   `webhooks_queued` that ingestion notified itself.
 */
export class Migration20261127100000_work_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "webhooks"."notify_background_work"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('background_work', tg_argv[0]);
        return null;
      end $$;`);
    this.addSql(
      `create trigger "messages_notify_queued" after insert or update of "status", "next_attempt_at" on "webhooks"."messages" for each row when (new."status" = 'pending') execute function "webhooks"."notify_background_work"('webhooks.queued');`,
    );
    this.addSql(
      `create trigger "owner_notices_notify" after insert on "webhooks"."owner_notices" for each row execute function "webhooks"."notify_background_work"('webhooks.owner_notices');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "messages_notify_queued" on "webhooks"."messages";');
    this.addSql('drop trigger if exists "owner_notices_notify" on "webhooks"."owner_notices";');
    this.addSql('drop function if exists "webhooks"."notify_background_work"();');
  }
}
