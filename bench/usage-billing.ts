// The billing job (`npm run bench`, target e; docs/performance.md#the-billing-job): events turned into billing
// entries per second. 100 subscriptions with a metered price on a count meter, BENCH_BILLING_EVENTS events spread
// over their customers (one generate_series insert), then `billUsage` over the whole backlog, timed: steps of 1,000
// events, one transaction each, as the job runs them.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { seedDueRenewals } from './seed-renewals.js';

export async function benchUsageBilling(options: {
  databaseUrl: string;
  /** BENCH_BILLING_EVENTS, else 20,000 quick and 200,000 in full. */
  count?: number;
  quick?: boolean;
  log: (line: string) => void;
}): Promise<string> {
  const count = options.count ?? Number(process.env.BENCH_BILLING_EVENTS ?? (options.quick ? 20_000 : 200_000));
  const { openBillingOrm } = await import('../subgraphs/billing/orm.js');
  const { billUsage } = await import('../subgraphs/billing/usage-billing/usage-billing.job.js');
  const organizationId = randomUUID();
  const periodEnd = new Date(Date.now() + 7 * 86_400_000);
  const { productId } = await seedDueRenewals({
    databaseUrl: options.databaseUrl,
    organizationId,
    count: 100,
    periodEnd,
  });
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const meterId = randomUUID();
  const priceId = randomUUID();
  const at = new Date();
  try {
    await client.query(
      `insert into billing.meters (id, organization_id, name, unit, filter, aggregation, metadata, created_at)
       values ($1, $2, 'Bench calls', 'scalar', '{"conjunction":"and","clauses":[{"property":"name","operator":"eq","value":"api.call"}]}', '{"func":"count"}', '{}', $3)`,
      [meterId, organizationId, at],
    );
    await client.query(
      `insert into billing.product_prices (id, product_id, amount_type, price_currency, meter_id, unit_amount, created_at)
       values ($1, $2, 'metered_unit', 'usd', $3, 0.5, $4)`,
      [priceId, productId, meterId, at],
    );
    await client.query(
      `update billing.subscriptions set price_ids = price_ids || array[$1::text], started_at = $2::timestamptz - interval '1 day'
       where organization_id = $3`,
      [priceId, at, organizationId],
    );
    await client.query('select billing.ensure_usage_event_partition($1)', [at]);
    const seeded = Date.now();
    await client.query(
      `insert into billing.usage_events (id, organization_id, name, source, timestamp, ingested_at, customer_id, metadata)
       select gen_random_uuid(), $1, 'api.call', 'user', $2, $2::timestamptz + (g || ' microseconds')::interval, c.ids[1 + g % 100], '{}'
       from generate_series(1, $3::int) g, (select array_agg(id) as ids from billing.customers where organization_id = $1) c`,
      [organizationId, at, count],
    );
    await client.query('analyze billing.usage_events');
    options.log(`usage billing: ${count} events seeded in ${Date.now() - seeded} ms`);
  } finally {
    await client.end();
  }
  const orm = await openBillingOrm(options.databaseUrl, 4);
  try {
    const started = process.hrtime.bigint();
    const billed = await billUsage(orm.em.fork(), organizationId, new Date(at.getTime() + 86_400_000));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rate = Math.round(count / seconds);
    return (
      '\n## Usage billing (target e)\n\n| measure | value |\n|---|---|\n' +
      `| events | ${count} |\n| entries written | ${billed} |\n| seconds | ${seconds.toFixed(2)} |\n` +
      `| events → entries per second | ${rate} |\n`
    );
  } finally {
    await orm.close();
  }
}
