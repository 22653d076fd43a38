import { Migration } from '@mikro-orm/migrations';

/**
 * Tax on checkouts (docs/tax.md#checkouts): `tax_amount` is null until it can be computed (Polar's: a
 * seller who collects needs the buyer's address first), the behaviour and breakdown it was computed
 * with, the evidence the order will keep, and the VAT-id check of `customer_tax_id`, stored so the
 * confirm does not ask VIES again.
 */
export class Migration20261128210000_checkout_tax extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."checkouts" alter column "tax_amount" drop not null;`);
    this.addSql(`alter table "billing"."checkouts" alter column "tax_amount" drop default;`);
    this.addSql(`alter table "billing"."checkouts" add column if not exists "tax_behavior" text null;`);
    this.addSql(
      `alter table "billing"."checkouts" add column if not exists "tax_breakdown" jsonb not null default '[]';`,
    );
    this.addSql(`alter table "billing"."checkouts" add column if not exists "tax_evidence" jsonb null;`);
    this.addSql(`alter table "billing"."checkouts" add column if not exists "customer_tax_id_check" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."checkouts" drop column if exists "customer_tax_id_check";`);
    this.addSql(`alter table "billing"."checkouts" drop column if exists "tax_evidence";`);
    this.addSql(`alter table "billing"."checkouts" drop column if exists "tax_breakdown";`);
    this.addSql(`alter table "billing"."checkouts" drop column if exists "tax_behavior";`);
    this.addSql(`update "billing"."checkouts" set "tax_amount" = 0 where "tax_amount" is null;`);
    this.addSql(`alter table "billing"."checkouts" alter column "tax_amount" set default 0;`);
    this.addSql(`alter table "billing"."checkouts" alter column "tax_amount" set not null;`);
  }
}
