import { Migration } from '@mikro-orm/migrations';

/**
 * An abandoned 3-D Secure charge is canceled at the processor before dunning's next attempt
 * (docs/recurring.md#one-payment-of-an-order-at-a-time): the test processor's charge may be `canceled`.
 */
export class Migration20261128120000_cancel_abandoned_charge extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "billing"."test_processor_charges" drop constraint if exists "test_processor_charges_status_check", add constraint "test_processor_charges_status_check" check ("status" in ('succeeded', 'failed', 'requires_action', 'canceled'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "billing"."test_processor_charges" set "status" = 'failed' where "status" = 'canceled'; alter table "billing"."test_processor_charges" drop constraint if exists "test_processor_charges_status_check", add constraint "test_processor_charges_status_check" check ("status" in ('succeeded', 'failed', 'requires_action'));`,
    );
  }
}
