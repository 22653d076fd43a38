import { Migration } from '@mikro-orm/migrations';

/**
 * The recurring engine (issue 11, docs/recurring.md). What makes a renewal happen
 * exactly once per period is here, not in timing: a `subscription_cycle` order records the start of
 * the period it bills, and there is at most one such order per (subscription, period start). The
 * partial indexes serve the scheduler's three questions: which subscriptions' periods have ended,
 * which pending renewal orders are due for a payment attempt, which paused subscriptions resume.
 */
export class Migration20261124130000_renewals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."orders" add column if not exists "billing_period_start" timestamptz null;`);
    this.addSql(
      `create unique index if not exists "orders_subscription_cycle_unique" on "billing"."orders" ("subscription_id", "billing_period_start") where "billing_reason" = 'subscription_cycle';`,
    );
    this.addSql(
      `create index if not exists "subscriptions_due_index" on "billing"."subscriptions" ("current_period_end") where "status" in ('active', 'trialing');`,
    );
    this.addSql(
      `create index if not exists "subscriptions_organization_due_index" on "billing"."subscriptions" ("organization_id", "current_period_end") where "status" in ('active', 'trialing');`,
    );
    this.addSql(
      `create index if not exists "subscriptions_resumes_at_index" on "billing"."subscriptions" ("resumes_at") where "status" = 'paused' and "resumes_at" is not null;`,
    );
    this.addSql(
      `create index if not exists "orders_next_payment_attempt_at_index" on "billing"."orders" ("next_payment_attempt_at") where "status" = 'pending' and "next_payment_attempt_at" is not null;`,
    );
  }

  override async down(): Promise<void> {
    for (const index of [
      'orders_subscription_cycle_unique',
      'subscriptions_due_index',
      'subscriptions_organization_due_index',
      'subscriptions_resumes_at_index',
      'orders_next_payment_attempt_at_index',
    ])
      this.addSql(`drop index if exists "billing"."${index}";`);
    this.addSql(`alter table "billing"."orders" drop column if exists "billing_period_start";`);
  }
}
