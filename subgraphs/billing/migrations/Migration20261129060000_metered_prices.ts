import { Migration } from '@mikro-orm/migrations';

/**
 * Metered prices (docs/usage-billing.md): `amount_type = 'metered_unit'` with the meter it bills, the price per
 * unit in minor units as an exact decimal (Polar's numeric(17, 12)) and an optional cap on the period's charge.
 */
export class Migration20261129060000_metered_prices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."product_prices" add column if not exists "meter_id" uuid null,
      add column if not exists "unit_amount" numeric(17, 12) null, add column if not exists "cap_amount" bigint null;`);
    this.addSql(`alter table "billing"."product_prices" drop constraint if exists "product_prices_amount_type_check";`);
    this.addSql(`alter table "billing"."product_prices" add constraint "product_prices_amount_type_check"
      check ("amount_type" in ('fixed', 'custom', 'seat_based', 'free', 'metered_unit'));`);
    this.addSql(
      `create index if not exists "product_prices_meter" on "billing"."product_prices" ("meter_id") where "meter_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."product_prices_meter";`);
    this.addSql(`alter table "billing"."product_prices" drop constraint if exists "product_prices_amount_type_check";`);
    this.addSql(`alter table "billing"."product_prices" add constraint "product_prices_amount_type_check"
      check ("amount_type" in ('fixed', 'custom', 'seat_based', 'free'));`);
    this.addSql(`alter table "billing"."product_prices" drop column if exists "meter_id",
      drop column if exists "unit_amount", drop column if exists "cap_amount";`);
  }
}
