// Seeds `count` subscriptions of one organization that are all due for renewal at `periodEnd`, straight
// into the billing schema with `INSERT … SELECT … FROM generate_series` (seconds for 100,000): one
// customer per subscription with a saved card at the built-in test processor (`pm_card_visa`), an
// active monthly subscription whose period ran from a month before `periodEnd` to `periodEnd`. Used by
// the exactly-once tests (test/e2e/renewals-exactly-once.test.ts) and `npm run bench` (renewals).
import { randomUUID } from 'node:crypto';
import pg from 'pg';

export interface DueRenewalSeed {
  databaseUrl: string;
  organizationId: string;
  count: number;
  /** When every seeded period ends (the renewals are due then). */
  periodEnd: Date;
  /** Price per period in minor units of usd (default 1000). */
  amount?: number;
}

export async function seedDueRenewals(seed: DueRenewalSeed): Promise<{ productId: string; ms: number }> {
  const started = Date.now();
  const client = new pg.Client({ connectionString: seed.databaseUrl });
  await client.connect();
  try {
    const org = seed.organizationId;
    const product = randomUUID();
    const price = randomUUID();
    const tag = product.slice(0, 8);
    const start = new Date(seed.periodEnd);
    start.setUTCMonth(start.getUTCMonth() - 1);
    await client.query('begin');
    await client.query(
      `insert into billing.products (id, organization_id, name, recurring_interval, recurring_interval_count, metadata, created_at) values ($1, $2, $3, 'month', 1, '{}', $4)`,
      [product, org, `Renewal plan ${tag}`, start],
    );
    await client.query(
      `insert into billing.product_prices (id, product_id, amount_type, price_currency, price_amount, created_at) values ($1, $2, 'fixed', 'usd', $3, $4)`,
      [price, product, seed.amount ?? 1000, start],
    );
    await client.query(
      `create temporary table seed_rows on commit drop as
       select g as n, gen_random_uuid() as customer_id, gen_random_uuid() as subscription_id, gen_random_uuid() as method_id,
              'cus_test_' || $1 || '_' || g as processor_customer, 'pm_test_' || $1 || '_' || g as processor_method
       from generate_series(0, $2::int - 1) g`,
      [tag, seed.count],
    );
    await client.query(
      `insert into billing.customers (id, organization_id, email, name, metadata, created_at)
       select customer_id, $1, 'renew-' || $2 || '-' || n || '@example.com', 'Customer ' || n, '{}', $3 from seed_rows`,
      [org, tag, start],
    );
    await client.query(
      `insert into billing.test_processor_customers (id, idempotency_key, email, name, metadata, created_at)
       select processor_customer, 'seed:' || processor_customer, null, null, '{}', $1 from seed_rows`,
      [start],
    );
    await client.query(
      `insert into billing.test_processor_payment_methods (id, idempotency_key, customer_id, test_method, status, brand, last4, exp_month, exp_year, created_at)
       select processor_method, 'seed:' || processor_method, processor_customer, 'pm_card_visa', 'saved', 'visa', '4242', 12, 2034, $1 from seed_rows`,
      [start],
    );
    await client.query(
      `insert into billing.payment_methods (id, organization_id, customer_id, processor, processor_id, processor_customer_id, type, brand, last4, exp_month, exp_year, created_at)
       select method_id, $1, customer_id, 'test', processor_method, processor_customer, 'card', 'visa', '4242', 12, 2034, $2 from seed_rows`,
      [org, start],
    );
    // The card is the customer's default (what a renewal charges).
    await client.query(
      'update billing.customers c set default_payment_method_id = r.method_id from seed_rows r where c.id = r.customer_id',
    );
    await client.query(
      `insert into billing.subscriptions (id, organization_id, customer_id, product_id, price_ids, amount, currency,
         recurring_interval, recurring_interval_count, status, current_period_start, current_period_end, started_at, metadata, created_at)
       select subscription_id, $1, customer_id, $2, array[$3::text], $4, 'usd', 'month', 1, 'active', $5, $6, $5, '{}', $5 from seed_rows`,
      [org, product, price, seed.amount ?? 1000, start, seed.periodEnd],
    );
    await client.query('commit');
    await client.query('analyze billing.subscriptions');
    return { productId: product, ms: Date.now() - started };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
