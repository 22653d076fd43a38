import { Migration } from '@mikro-orm/migrations';

/**
 * A customer's wallets (docs/wallets.md): one per customer and currency, derived from the balance
 * ledger `customer_balance_entries` (the wallet's transactions), never stored twice. Its id is a digest
 * of (customer, currency) shaped as a version-5 UUID (the API checks ids are UUIDs), so it is the same
 * on every read and across restores.
 */
export class Migration20261129020000_customer_wallets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace view "billing"."customer_wallets" as
      select overlay(overlay(md5('wallet:' || e.customer_id::text || ':' || e.currency) placing '5' from 13 for 1)
          placing '8' from 17 for 1)::uuid as id,
        e.organization_id, e.customer_id, e.currency,
        min(e.created_at) as created_at,
        case when count(*) > 1 then max(e.created_at) end as modified_at,
        sum(e.amount)::bigint as balance
      from "billing"."customer_balance_entries" e
      group by e.organization_id, e.customer_id, e.currency;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists "billing"."customer_wallets";`);
  }
}
