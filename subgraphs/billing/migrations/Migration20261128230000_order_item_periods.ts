import { Migration } from '@mikro-orm/migrations';

/**
 * The period each order line covers (Polar's `start_timestamp`/`end_timestamp` on order items,
 * docs/selling.md#order-item-periods), and the period each waiting proration line covers, which it carries
 * into the renewal order that takes it. Null for one-time lines, and on lines written before this: what
 * they covered is not recorded anywhere to read it back from.
 */
export class Migration20261128230000_order_item_periods extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."order_items"
      add column if not exists "start_timestamp" timestamptz null,
      add column if not exists "end_timestamp" timestamptz null;`);
    this.addSql(`alter table "billing"."subscription_proration_items"
      add column if not exists "start_timestamp" timestamptz null,
      add column if not exists "end_timestamp" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."order_items" drop column if exists "start_timestamp",
      drop column if exists "end_timestamp";`);
    this.addSql(`alter table "billing"."subscription_proration_items" drop column if exists "start_timestamp",
      drop column if exists "end_timestamp";`);
  }
}
