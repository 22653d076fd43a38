import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes for two reads (docs/performance.md#review-of-issue-25):
 * - a subscription's page of orders in the lists' default order (`BillingSubscription.orders`): the
 *   page walks `(subscription_id, created_at, id)` to its window instead of sorting every order of the
 *   subscription; it replaces the index on `subscription_id` alone, which is its prefix;
 * - `is_deletable`'s discount test (`productReferenced`): whether a live discount names the product in
 *   its `product_ids`, by a GIN index instead of reading every discount of the organization.
 */
export class Migration20261129030000_review_read_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index if not exists "orders_subscription_id_created_at_index" on "billing"."orders" ("subscription_id", "created_at", "id");`,
    );
    this.addSql(`drop index if exists "billing"."orders_subscription_id_index";`);
    this.addSql(
      `create index if not exists "discounts_product_ids_live_index" on "billing"."discounts" using gin ("product_ids") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."discounts_product_ids_live_index";`);
    this.addSql(`create index if not exists "orders_subscription_id_index" on "billing"."orders" ("subscription_id");`);
    this.addSql(`drop index if exists "billing"."orders_subscription_id_created_at_index";`);
  }
}
