import { Migration } from '@mikro-orm/migrations';

/**
 * Tax on orders (docs/tax.md): the behaviour it was computed with, the per-rate breakdown Polar shows
 * (`tax_breakdown`), and the evidence of the computation (who computed it, the buyer's location and tax
 * id, the VAT-id check). Orders from before tax keep a null behaviour and an empty breakdown.
 */
export class Migration20261128200000_order_tax extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."orders" add column if not exists "tax_behavior" text null;`);
    this.addSql(`alter table "billing"."orders" add column if not exists "tax_breakdown" jsonb not null default '[]';`);
    this.addSql(`alter table "billing"."orders" add column if not exists "tax_evidence" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."orders" drop column if exists "tax_evidence";`);
    this.addSql(`alter table "billing"."orders" drop column if exists "tax_breakdown";`);
    this.addSql(`alter table "billing"."orders" drop column if exists "tax_behavior";`);
  }
}
