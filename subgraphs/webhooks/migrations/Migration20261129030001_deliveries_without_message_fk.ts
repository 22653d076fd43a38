import { Migration } from '@mikro-orm/migrations';

/**
 * `webhooks.deliveries.message_id` loses its foreign key: the delivery worker's `record` statement
 * (webhook-message.repository.ts) inserts a delivery row for every finished attempt, and the key's check
 * was one more primary-key lookup of the message per delivery (with a `FOR KEY SHARE` lock), about a fifth
 * of that statement's time. A delivery row is only ever written by that statement, for a message it
 * updates in the same statement, and messages are never deleted, so the reference holds by construction
 * (docs/webhooks.md). The index on `message_id` stays: the delivery log reads by it.
 */
export class Migration20261129030001_deliveries_without_message_fk extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhooks"."deliveries" drop constraint if exists "deliveries_message_id_fkey";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "webhooks"."deliveries" add constraint "deliveries_message_id_fkey" foreign key ("message_id") references "webhooks"."messages" ("id");`,
    );
  }
}
