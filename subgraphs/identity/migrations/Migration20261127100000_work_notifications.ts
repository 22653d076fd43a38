import { Migration } from '@mikro-orm/migrations';

/**
 * The owner-notice relay wakes on a notification instead of polling (kit/background/background-work.ts): writing a notice
 * notifies `background_work` with the topic `identity.owner_notices` (kit/database/work-signals.ts),
 * delivered at commit to every process listening on this database.
 */
export class Migration20261127100000_work_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function "identity"."notify_background_work"() returns trigger language plpgsql as $$
      begin
        perform pg_notify('background_work', tg_argv[0]);
        return null;
      end $$;`);
    this.addSql(
      `create trigger "owner_notices_notify" after insert on "identity"."owner_notices" for each row execute function "identity"."notify_background_work"('identity.owner_notices');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "owner_notices_notify" on "identity"."owner_notices";');
    this.addSql('drop function if exists "identity"."notify_background_work"();');
  }
}
