import { Migration } from '@mikro-orm/migrations';

/**
 * `DELETE /v1/products/{id}` is a soft delete (docs/products.md#deleting-a-product): the row stays so the
 * checkouts, checkout links and benefit links that named the product still read it.
 */
export class Migration20261128233000_product_deleted_at extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."products" add column if not exists "deleted_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."products" drop column if exists "deleted_at";`);
  }
}
