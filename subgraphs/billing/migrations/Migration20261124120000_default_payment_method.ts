import { Migration } from '@mikro-orm/migrations';

/**
 * The customer's default payment method moves onto the customer (Polar's
 * `customers.default_payment_method_id`): one column is the one truth of "what the next renewal or
 * dunning retry charges", where a flag per method row could say two things at once. Existing flags are
 * carried over, then dropped. The portal lists a customer's live methods newest first.
 */
export class Migration20261124120000_default_payment_method extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."customers" add column "default_payment_method_id" uuid null;`);
    this.addSql(`update "billing"."customers" c set "default_payment_method_id" = (
      select pm.id from "billing"."payment_methods" pm
      where pm.customer_id = c.id and pm.is_default and pm.deleted_at is null
      order by pm.created_at desc limit 1)
      where exists (select 1 from "billing"."payment_methods" pm where pm.customer_id = c.id and pm.is_default);`);
    this.addSql(`alter table "billing"."payment_methods" drop column "is_default";`);
    this.addSql(
      `create index "payment_methods_customer_live_index" on "billing"."payment_methods" ("customer_id", "created_at") where "deleted_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."payment_methods_customer_live_index";`);
    this.addSql(`alter table "billing"."payment_methods" add column "is_default" boolean not null default false;`);
    this.addSql(`update "billing"."payment_methods" pm set "is_default" = true
      from "billing"."customers" c where c.default_payment_method_id = pm.id;`);
    this.addSql(`alter table "billing"."customers" drop column "default_payment_method_id";`);
  }
}
