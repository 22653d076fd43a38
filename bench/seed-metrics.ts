// Seeds one organization for the metrics bench (bench/metrics.ts), straight into the billing schema with
// `INSERT … SELECT … FROM generate_series` in batches: customers, subscriptions started over the past year
// (some yearly, some with a trial, a discount, or ended after three months with a cancellation reason), paid
// orders spread evenly over the same year (half of them of a subscription, some partially refunded) and
// checkouts (70 % succeeded). The billing schema must exist (the service migrates it).
import { randomUUID } from 'node:crypto';
import { seedTransaction } from './seed-transaction.js';

const BATCH = 100_000;
const YEAR_SECONDS = 365 * 86_400;

export async function seedMetrics(options: {
  databaseUrl: string;
  organizationId: string;
  orders: number;
  subscriptions: number;
  checkouts: number;
}): Promise<{ ms: number }> {
  return seedTransaction(
    options.databaseUrl,
    ['billing.orders', 'billing.subscriptions', 'billing.checkouts', 'billing.customers'],
    async client => {
      const org = options.organizationId;
      const tag = randomUUID().slice(0, 8);
      const [plan, planPrice, book, bookPrice, discount] = Array.from({ length: 5 }, randomUUID);
      const customers = Math.max(1, Math.min(20_000, Math.floor(options.subscriptions / 5)));
      const product = `insert into billing.products (id, organization_id, name, recurring_interval, recurring_interval_count, metadata, created_at)
       values ($1, $2, $3, $4, $5, '{}', now() - interval '2 years')`;
      await client.query(product, [plan, org, `Metrics plan ${tag}`, 'month', 1]);
      await client.query(product, [book, org, `Metrics book ${tag}`, null, null]);
      const price = `insert into billing.product_prices (id, product_id, amount_type, price_currency, price_amount, created_at)
       values ($1, $2, 'fixed', 'usd', $3, now() - interval '2 years')`;
      await client.query(price, [planPrice, plan, 2900]);
      await client.query(price, [bookPrice, book, 1500]);
      await client.query(
        `insert into billing.discounts (id, organization_id, name, type, basis_points, duration, product_ids, metadata, created_at)
       values ($1, $2, 'Ten off', 'percentage', 1000, 'forever', '{}', '{}', now() - interval '2 years')`,
        [discount, org],
      );
      await client.query('create temporary table bench_metric_customers (n int primary key, id uuid not null)');
      await client.query(
        'insert into bench_metric_customers select g, gen_random_uuid() from generate_series(0, $1 - 1) g',
        [customers],
      );
      await client.query(
        `insert into billing.customers (id, organization_id, email, metadata, created_at)
       select id, $1, 'metrics-' || n || '-' || $2 || '@example.com', '{}', now() - interval '2 years' from bench_metric_customers`,
        [org, tag],
      );
      await client.query('create temporary table bench_metric_subs (n int primary key, id uuid not null)');
      await client.query(
        'insert into bench_metric_subs select g, gen_random_uuid() from generate_series(0, $1 - 1) g',
        [options.subscriptions],
      );
      const subStep = YEAR_SECONDS / Math.max(1, options.subscriptions);
      for (let from = 0; from < options.subscriptions; from += BATCH) {
        const to = Math.min(options.subscriptions, from + BATCH);
        await client.query(
          `insert into billing.subscriptions (id, organization_id, customer_id, product_id, discount_id, price_ids, amount,
           currency, recurring_interval, recurring_interval_count, status, current_period_start, current_period_end,
           trial_start, trial_end, canceled_at, started_at, ended_at, customer_cancellation_reason, metadata, created_at)
         select s.id, $1, c.id, $2, case when g % 10 = 0 then $3::uuid end, array[$4::uuid],
           case when g % 7 = 1 then 29000 else 500 * (1 + g % 5) end, 'usd',
           case when g % 7 = 1 then 'year' else 'month' end, 1,
           case when g % 7 = 0 then 'canceled' else 'active' end, x.at, x.at + interval '30 days',
           case when g % 10 = 3 then x.at end, case when g % 10 = 3 then x.at + interval '14 days' end,
           case when g % 7 = 0 then x.at + interval '80 days' end, x.at,
           case when g % 7 = 0 then x.at + interval '90 days' end,
           case when g % 7 = 0 then (array['too_expensive','unused','missing_features','other'])[1 + g % 4] end,
           '{}', x.at
         from generate_series($5::int, $6::int - 1) g
         join bench_metric_subs s on s.n = g
         join bench_metric_customers c on c.n = g % $7
         cross join lateral (select now() - interval '1 second' * ($8::float8 * g) as at) x`,
          [org, plan, discount, planPrice, from, to, customers, subStep],
        );
      }
      const orderStep = YEAR_SECONDS / Math.max(1, options.orders);
      for (let from = 0; from < options.orders; from += BATCH) {
        const to = Math.min(options.orders, from + BATCH);
        await client.query(
          `insert into billing.orders (id, organization_id, customer_id, product_id, product_price_id, subscription_id,
           status, billing_reason, currency, subtotal_amount, discount_amount, tax_amount, refunded_amount, created_at)
         select gen_random_uuid(), $1, c.id, case when g % 2 = 0 then $2::uuid else $3::uuid end,
           case when g % 2 = 0 then $4::uuid else $5::uuid end, case when g % 2 <> 0 then s.id end,
           case when g % 50 = 0 then 'partially_refunded' when g % 97 = 0 then 'pending' else 'paid' end,
           case when g % 2 = 0 then 'purchase' else 'subscription_cycle' end, 'usd',
           case when g % 2 = 0 then 1500 else 2900 end, case when g % 20 = 1 then 290 else 0 end, 0,
           case when g % 50 = 0 then 500 else 0 end,
           now() - interval '1 second' * ($6::float8 * g)
         from generate_series($7::int, $8::int - 1) g
         join bench_metric_customers c on c.n = g % $9
         join bench_metric_subs s on s.n = g % $10`,
          [org, book, plan, bookPrice, planPrice, orderStep, from, to, customers, Math.max(1, options.subscriptions)],
        );
      }
      const checkoutStep = YEAR_SECONDS / Math.max(1, options.checkouts);
      for (let from = 0; from < options.checkouts; from += BATCH) {
        const to = Math.min(options.checkouts, from + BATCH);
        await client.query(
          `insert into billing.checkouts (id, organization_id, client_secret, status, product_ids, product_id,
           product_price_id, amount, currency, expires_at, created_at)
         select gen_random_uuid(), $1, 'bench_' || $2 || '_' || g, case when g % 10 < 7 then 'succeeded' else 'expired' end,
           array[$3::uuid], $3, $4, 2900, 'usd', x.at + interval '1 hour', x.at
         from generate_series($5::int, $6::int - 1) g
         cross join lateral (select now() - interval '1 second' * ($7::float8 * g) as at) x`,
          [org, tag, plan, planPrice, from, to, checkoutStep],
        );
      }
    },
  );
}
