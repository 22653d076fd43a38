import { Migration } from '@mikro-orm/migrations';

/**
 * What started each payment attempt (Polar's `PaymentTrigger`, docs/sdk-compatibility.md#payment-trigger).
 * Earlier rows are read back from their processor key (payments/idempotency-key.ts): a checkout's is a
 * purchase, a renewal's first attempt the cycle and its later ones dunning, a portal retry the
 * customer's, a plan change's charge the cycle (Polar bills a subscription update as one).
 */
export class Migration20261128220000_payment_trigger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "billing"."payments" add column if not exists "trigger" text null;`);
    this.addSql(`update "billing"."payments" set "trigger" = case
      when "checkout_id" is not null then 'purchase'
      when "idempotency_key" like 'charge:order:%:manual:%' then 'retry_customer'
      when "idempotency_key" like 'charge:subscription:%:1' then 'subscription_cycle'
      when "idempotency_key" like 'charge:subscription:%' then 'retry_dunning'
      when "order_id" is not null then 'subscription_cycle'
    end where "trigger" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "billing"."payments" drop column if exists "trigger";`);
  }
}
