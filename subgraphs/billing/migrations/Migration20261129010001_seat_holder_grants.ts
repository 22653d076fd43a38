import { Migration } from '@mikro-orm/migrations';

/**
 * A seat-based subscription or order grants its benefits to each seat holder (docs/customer-seats.md),
 * so one subscription or order now holds a benefit once per customer, not once in all.
 */
export class Migration20261129010001_seat_holder_grants extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "billing"."benefit_grants_subscription_unique";`);
    this.addSql(`drop index if exists "billing"."benefit_grants_order_unique";`);
    this.addSql(
      `create unique index "benefit_grants_subscription_unique" on "billing"."benefit_grants" ("subscription_id", "benefit_id", "customer_id") where "subscription_id" is not null;`,
    );
    this.addSql(
      `create unique index "benefit_grants_order_unique" on "billing"."benefit_grants" ("order_id", "benefit_id", "customer_id") where "order_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."benefit_grants_subscription_unique";`);
    this.addSql(`drop index if exists "billing"."benefit_grants_order_unique";`);
    this.addSql(
      `create unique index "benefit_grants_subscription_unique" on "billing"."benefit_grants" ("subscription_id", "benefit_id") where "subscription_id" is not null;`,
    );
    this.addSql(
      `create unique index "benefit_grants_order_unique" on "billing"."benefit_grants" ("order_id", "benefit_id") where "order_id" is not null;`,
    );
  }
}
