import { Migration } from '@mikro-orm/migrations';

/**
 * The payment processor's events (Stripe's webhooks) consumed so far, one row per processor event id,
 * written in the transaction that applies the event: a replayed or concurrent duplicate finds its row
 * and changes nothing. Payments and refunds are found by the processor's ids the events name.
 */
export class Migration20261125100000_processor_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "billing"."processor_events" (
      "id" text not null primary key,
      "type" text not null,
      "outcome" text not null,
      "received_at" timestamptz not null
    );`);
    this.addSql(
      `create index if not exists "payments_processor_id_index" on "billing"."payments" ("processor_id") where "processor_id" is not null;`,
    );
    this.addSql(
      `create index if not exists "refunds_processor_id_index" on "billing"."refunds" ("processor_id") where "processor_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."refunds_processor_id_index";`);
    this.addSql(`drop index if exists "billing"."payments_processor_id_index";`);
    this.addSql(`drop table if exists "billing"."processor_events";`);
  }
}
