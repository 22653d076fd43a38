import { Migration } from '@mikro-orm/migrations';

/**
 * The portal's "add payment method" with 3-D Secure is confirmed later (docs/payments.md): the test
 * processor keeps the setup's metadata (our `customer_id`), as a Stripe SetupIntent does, so the confirm
 * knows whose setup it is.
 */
export class Migration20261128130000_setup_metadata extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "billing"."test_processor_payment_methods" add column if not exists "metadata" jsonb not null default '{}';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."test_processor_payment_methods" drop column if exists "metadata";`);
  }
}
