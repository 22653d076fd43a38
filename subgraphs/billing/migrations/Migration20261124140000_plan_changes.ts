import { Migration } from '@mikro-orm/migrations';

/**
 * Plan and seat changes (docs/subscriptions.md#subscription-updates):
 * - `subscription_proration_items`: the proration lines a `prorate` change leaves for the next renewal
 *   order; `order_id` is set when a renewal order takes them, so each is billed once.
 * - `customer_balance_entries`: the customer's balance as a ledger per currency. A credit larger than a
 *   change's charge adds a positive entry; an order that uses the balance adds a negative one. The
 *   balance is the sum, never negative (checked under the customer's row lock by the writers).
 * - `orders_amounts_consistent` lets a plan change's order (`subscription_update`) and a renewal that
 *   carries proration credits (`subscription_cycle`) have a negative subtotal: a credit larger than the
 *   charge, which becomes customer balance. Other orders stay ≥ 0; a discount never exceeds a positive
 *   subtotal.
 */
export class Migration20261124140000_plan_changes extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table if not exists "billing"."subscription_proration_items" ("id" uuid not null primary key, "organization_id" uuid not null, "subscription_id" uuid not null references "billing"."subscriptions" ("id") on delete cascade, "customer_id" uuid not null, "currency" text not null, "label" text not null, "amount" bigint not null, "position" integer not null default 0, "order_id" uuid null references "billing"."orders" ("id"), "created_at" timestamptz not null, "taken_at" timestamptz null);`,
    );
    this.addSql(
      `create index if not exists "subscription_proration_items_pending_idx" on "billing"."subscription_proration_items" ("subscription_id", "created_at") where "order_id" is null;`,
    );
    this.addSql(
      `create table if not exists "billing"."customer_balance_entries" ("id" uuid not null primary key, "organization_id" uuid not null, "customer_id" uuid not null references "billing"."customers" ("id") on delete cascade, "currency" text not null, "amount" bigint not null check ("amount" <> 0), "order_id" uuid null references "billing"."orders" ("id"), "reason" text not null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `create index if not exists "customer_balance_entries_customer_idx" on "billing"."customer_balance_entries" ("customer_id", "currency");`,
    );
    this.addSql('alter table "billing"."orders" drop constraint if exists "orders_amounts_consistent";');
    this.addSql(
      `alter table "billing"."orders" add constraint "orders_amounts_consistent" check ("discount_amount" between 0 and greatest("subtotal_amount", 0) and ("subtotal_amount" >= 0 or "billing_reason" in ('subscription_update', 'subscription_cycle')));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table "billing"."orders" drop constraint if exists "orders_amounts_consistent";');
    this.addSql(
      `alter table "billing"."orders" add constraint "orders_amounts_consistent" check ("subtotal_amount" >= 0 and "discount_amount" between 0 and "subtotal_amount");`,
    );
    this.addSql('drop table if exists "billing"."customer_balance_entries";');
    this.addSql('drop table if exists "billing"."subscription_proration_items";');
  }
}
