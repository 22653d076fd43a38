import { Migration } from '@mikro-orm/migrations';

/**
 * Checkout expiry (checkouts/checkout-expiry.ts): an organization's next open checkout to expire (the
 * sandbox clock's advance asks it at every step) and every organization's overdue ones (the
 * production sweep). Both read only open checkouts, a small part of the table.
 */
export class Migration20261124120001_checkout_expiry extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "checkouts_open_expiry_index" on "billing"."checkouts" ("organization_id", "expires_at") where "status" = 'open';`,
    );
    this.addSql(
      `create index "checkouts_open_expires_at_index" on "billing"."checkouts" ("expires_at") where "status" = 'open';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."checkouts_open_expiry_index";`);
    this.addSql(`drop index if exists "billing"."checkouts_open_expires_at_index";`);
  }
}
