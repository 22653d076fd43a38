import { Migration } from '@mikro-orm/migrations';

/**
 * A discount's redemption per checkout (Polar's DiscountRedemption): taken by the confirm before the
 * money moves (checkouts/checkout-confirm.ts, reserveDiscount), given back on a decline or when the
 * checkout expires; `discounts.redemptions_count` moves with it, so `max_redemptions` holds under
 * concurrent confirms.
 */
export class Migration20261124120002_discount_redemptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "billing"."discount_redemptions" (
      "checkout_id" uuid not null primary key, "discount_id" uuid not null, "created_at" timestamptz not null);`);
    this.addSql(
      `create index "discount_redemptions_discount_id_index" on "billing"."discount_redemptions" ("discount_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing"."discount_redemptions";`);
  }
}
