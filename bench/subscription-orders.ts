// Target q of `npm run bench`: the orders of ONE subscription with many orders (BENCH_SUBSCRIPTION_ORDERS,
// 20,000, seeded in SQL), its first page and a deep page (the last full page), of 10 orders each:
//   - `BillingSubscription.orders` through POST /graphql (OrderService.ofSubscription: the page in SQL);
//   - GET /v1/orders/?subscription_id=… (the orders list filtered by that subscription).
// Loaded with BENCH_Q_CONNECTIONS (4) connections. No goal of its own: it prints requests/s, p50, p99 and the service's CPU per request, to compare builds.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Goal } from './subscriptions.js';
import { type Child, type LoadOptions, measure, table } from './support.js';

const LIMIT = 10;
/**
 * Fewer connections than the service's database pool: a GraphQL error (a 503 for want of a connection)
 * is an HTTP 200 that autocannon would count as a fast answer. BENCH_Q_CONNECTIONS changes it.
 */
const CONNECTIONS = Number(process.env.BENCH_Q_CONNECTIONS ?? 4);

export async function benchSubscriptionOrders(o: {
  baseUrl: string;
  databaseUrl: string;
  tenant: { organizationId: string; oat: string };
  load: Omit<LoadOptions, 'url' | 'method' | 'headers' | 'body'>;
  service: Child;
  log: (line: string) => void;
}): Promise<{ report: string; goals: Goal[] }> {
  const count = Number(process.env.BENCH_SUBSCRIPTION_ORDERS ?? 20_000);
  const started = Date.now();
  const subscriptionId = await seedSubscriptionOrders(o.databaseUrl, o.tenant.organizationId, count);
  o.log(`(q) seeded one subscription with ${count} orders in ${Date.now() - started} ms`);
  const deep = Math.floor(count / LIMIT);
  const auth = { authorization: `Bearer ${o.tenant.oat}` };
  const graphql = (page: number) => ({
    url: `${o.baseUrl}/graphql`,
    method: 'POST' as const,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `query ($id: ID!, $page: Int!) { subscription(id: $id) { orders(page: $page, limit: ${LIMIT}) {
        items { id createdAt totalAmount } pagination { totalCount maxPage } } } }`,
      variables: { id: subscriptionId, page },
    }),
  });
  const rest = (page: number) => ({
    url: `${o.baseUrl}/v1/orders/?subscription_id=${subscriptionId}&limit=${LIMIT}&page=${page}`,
    headers: auth,
  });
  const targets: [string, Omit<LoadOptions, keyof typeof o.load>][] = [
    ['POST /graphql subscription.orders page 1', graphql(1)],
    [`POST /graphql subscription.orders page ${deep.toLocaleString('en')}`, graphql(deep)],
    ['GET /v1/orders/?subscription_id= page 1', rest(1)],
    [`GET /v1/orders/?subscription_id= page ${deep.toLocaleString('en')}`, rest(deep)],
  ];
  const rows: string[][] = [];
  for (const [label, request] of targets) {
    // The previous target's backlog may still hold the database connections: a few tries, a second apart.
    let text = '';
    for (let attempt = 0; attempt < 30; attempt++) {
      const check = await fetch(request.url, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
      });
      text = await check.text();
      if (check.status === 200 && !text.includes('"errors"')) break;
      if (attempt === 29) throw new Error(`(q) ${label}: ${check.status} ${text.slice(0, 300)}`);
      await new Promise(resolve => setTimeout(resolve, 1000));
    }
    // Printed, not thrown: a build that caps what it reads answers a wrong total, and that is a finding.
    const body = JSON.parse(text);
    const list = body.data?.subscription.orders ?? body;
    const total = Number(list.pagination.totalCount ?? list.pagination.total_count);
    const items = list.items.length;
    o.log(`(q) ${label}…`);
    const r = await measure({ ...o.load, connections: CONNECTIONS, ...request, serverPid: o.service.process.pid });
    rows.push([
      label,
      `${items}${total === count ? '' : ` (total ${total}: WRONG)`}`,
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.errors + r.non2xx),
      r.serverCpuUsPerRequest.toFixed(0),
    ]);
  }
  const report = [
    '',
    `One subscription's orders (${count.toLocaleString('en')} orders, ${LIMIT} a page, ${CONNECTIONS} connections)`,
    '',
    table(['target', 'items', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'server CPU µs/req'], rows),
    '',
  ].join('\n');
  return { report, goals: [] };
}

/** One customer, one subscription and `count` paid orders of it (one item each), one a minute back in time. */
async function seedSubscriptionOrders(databaseUrl: string, organizationId: string, count: number): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const [product, price, customer, subscription] = Array.from({ length: 4 }, randomUUID);
  try {
    await client.query('begin');
    await client.query(
      `insert into billing.products (id, organization_id, name, recurring_interval, recurring_interval_count, metadata, created_at)
       values ($1, $2, 'Bench long-lived plan', 'month', 1, '{}', now())`,
      [product, organizationId],
    );
    await client.query(
      `insert into billing.product_prices (id, product_id, amount_type, price_currency, price_amount, created_at)
       values ($1, $2, 'fixed', 'usd', 2900, now())`,
      [price, product],
    );
    await client.query(
      `insert into billing.customers (id, organization_id, email, name, metadata, created_at)
       values ($1, $2, $3, 'Long-lived subscriber', '{}', now())`,
      [customer, organizationId, `bench-long-${customer.slice(0, 8)}@example.com`],
    );
    await client.query(
      `insert into billing.subscriptions (id, organization_id, customer_id, product_id, price_ids, amount, currency,
         recurring_interval, status, current_period_start, current_period_end, started_at, metadata, created_at)
       values ($1, $2, $3, $4, array[$5::text], 2900, 'usd', 'month', 'active', date_trunc('month', now()),
         date_trunc('month', now()) + interval '1 month', now() - interval '10 years', '{}', now() - interval '10 years')`,
      [subscription, organizationId, customer, product, price],
    );
    await client.query(
      `with made as (
         insert into billing.orders (id, organization_id, customer_id, product_id, product_price_id, subscription_id,
           status, billing_reason, currency, subtotal_amount, discount_amount, tax_amount, metadata, created_at)
         select gen_random_uuid(), $1, $2, $3, $4, $5, 'paid',
           case when g = $6 - 1 then 'subscription_create' else 'subscription_cycle' end, 'usd', 2900, 0, 0, '{}',
           now() - interval '1 minute' * g
         from generate_series(0, $6 - 1) g
         returning id, created_at)
       insert into billing.order_items (id, order_id, label, amount, product_price_id, proration, position, created_at)
       select gen_random_uuid(), id, 'Bench long-lived plan', 2900, $4, false, 0, created_at from made`,
      [organizationId, customer, product, price, subscription, count],
    );
    await client.query('commit');
    await client.query('analyze billing.orders');
    return subscription;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
