import { Migration } from '@mikro-orm/migrations';

/**
 * 3-D Secure (docs/payments.md): the test processor's charges and saved methods may wait for the
 * customer's authentication (`requires_action`, with the client secret the challenge page names); a
 * checkout confirmed with a charge that waits keeps Polar's `payment_processor_metadata`
 * (`intent_status`, `intent_client_secret`), the intent it waits for and the fulfilment to run once the
 * processor's event settles it.
 */
export class Migration20261128100000_three_d_secure extends Migration {
  override async up(): Promise<void> {
    for (const [table, statuses] of [
      ['test_processor_charges', `'succeeded', 'failed', 'requires_action'`],
      ['test_processor_payment_methods', `'saved', 'failed', 'requires_action'`],
    ])
      this.addSql(
        `alter table "billing"."${table}" drop constraint if exists "${table}_status_check", add constraint "${table}_status_check" check ("status" in (${statuses})), add column if not exists "client_secret" text null;`,
      );
    this.addSql(
      `alter table "billing"."checkouts" add column if not exists "payment_processor_metadata" jsonb not null default '{}', add column if not exists "pending_intent_id" text null, add column if not exists "pending_fulfilment" jsonb null;`,
    );
    this.addSql(
      `create unique index if not exists "checkouts_pending_intent_id_index" on "billing"."checkouts" ("pending_intent_id") where "pending_intent_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "billing"."checkouts_pending_intent_id_index";`);
    this.addSql(
      `alter table "billing"."checkouts" drop column if exists "payment_processor_metadata", drop column if exists "pending_intent_id", drop column if exists "pending_fulfilment";`,
    );
    for (const table of ['test_processor_charges', 'test_processor_payment_methods'])
      this.addSql(`alter table "billing"."${table}" drop column if exists "client_secret";`);
  }
}
