import { Migration } from '@mikro-orm/migrations';

/**
 * The card-expiration reminder is kept per card, as Polar's (docs/email.md#customer-e-mails): its rows,
 * until now one per subscription, become one per customer's chargeable card (the subject the reminder
 * code now writes), keeping the anchor and whether it was sent; the per-subscription rows go.
 */
export class Migration20261129050500_card_reminders_per_card extends Migration {
  override async up(): Promise<void> {
    this.addSql(`insert into "billing"."customer_email_reminders" ("kind", "subject_id", "organization_id", "anchor", "due_at", "sent_anchor", "payload")
      select distinct on (card.id) r."kind", card.id, r."organization_id", r."anchor", r."due_at", r."sent_anchor",
             jsonb_build_object('customer_id', s.customer_id, 'customer', r."payload"->'customer')
        from "billing"."customer_email_reminders" r
        join "billing"."subscriptions" s on s.id = r."subject_id"
        join lateral (
          select pm.id from "billing"."payment_methods" pm join "billing"."customers" c on c.id = pm.customer_id
           where pm.customer_id = s.customer_id and pm.deleted_at is null
           order by (pm.id = c.default_payment_method_id) is true desc, pm.created_at desc limit 1) card on true
       where r."kind" = 'payment_method_expiration_reminder'
       order by card.id, r."sent_anchor" is not distinct from r."anchor" desc
      on conflict ("kind", "subject_id") do nothing;`);
    this.addSql(`delete from "billing"."customer_email_reminders" r using "billing"."subscriptions" s
      where r."kind" = 'payment_method_expiration_reminder' and s.id = r."subject_id";`);
  }

  override async down(): Promise<void> {
    // Per-subscription rows are written again by each subscription's next change.
    this.addSql(
      `delete from "billing"."customer_email_reminders" where "kind" = 'payment_method_expiration_reminder';`,
    );
  }
}
