import { randomUUID } from 'node:crypto';
import { seedDueRenewals } from '../../bench/seed-renewals.js';
import type { IdentityRuntime } from '../../subgraphs/identity/runtime.js';
import { query } from '../support/embedded-server.js';
import { call, createTenant, identityAdminOn, type Tenant } from '../support/stack.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { ReplicaPair } from './replica-pair.js';

/**
 * Two replicas of the service on one database (docs/pgbouncer.md#many-replicas): two built `npm start`
 * processes (`<build>/embedded/main.js`), each with every worker on (renewal scheduler every 100 ms, jobs,
 * outbox relay, webhook delivery), behind the PgBouncer of test/pgbouncer in transaction pooling mode
 * when its binary is installed (straight to PostgreSQL otherwise; test/replicas/replica-pair.ts). Then:
 * 60 due subscriptions are renewed once each (one order, one payment, one processor charge per period)
 * with both schedulers racing; an idempotency key sent to one replica and then the other creates one
 * product; a sale made on one replica is delivered to the merchant once, whichever replica's worker
 * claims it.
 */
jest.setTimeout(300_000);

const COUNT = 60;
const pair = new ReplicaPair();
const { replicas } = pair;
let identity: IdentityRuntime;
let tenant: Tenant;
let receiver: WebhookReceiver;
const renewingOrganization = randomUUID();

beforeAll(async () => {
  await pair.start({
    label: 'two-replicas',
    prepare: ({ sandbox }) =>
      seedDueRenewals({
        databaseUrl: sandbox,
        organizationId: renewingOrganization,
        count: COUNT,
        periodEnd: new Date(Date.now() - 60_000),
      }),
    settings: () => ({ RENEWAL_INTERVAL_MS: '100', LOG_LEVEL: 'error' }),
  });
  // The tenant is made as the CLI makes it: identity's admin on the sandbox database.
  const cli = await identityAdminOn(pair.sandbox);
  identity = cli.runtime;
  tenant = await createTenant(cli);
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  await identity?.close();
  await receiver?.close();
  await pair.stop();
});

const on = (replica: number, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(replicas[replica].baseUrl, method, path, { token: tenant.oat, body, headers });

async function renewals(): Promise<Record<string, number>> {
  const [row] = await query<Record<string, string>>(
    pair.sandbox,
    `select
       (select count(*) from billing.orders o where o.organization_id = $1 and o.billing_reason = 'subscription_cycle' and o.status = 'paid') as paid,
       (select count(*) from (select 1 from billing.orders o where o.organization_id = $1 and o.billing_reason = 'subscription_cycle'
          group by o.subscription_id, o.billing_period_start having count(*) > 1) d) as duplicated_periods,
       (select count(*) from billing.payments p where p.organization_id = $1) as payments,
       (select count(*) from billing.test_processor_charges c
          where c.metadata->>'subscription_id' in (select id::text from billing.subscriptions where organization_id = $1)) as charges`,
    [renewingOrganization],
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

it('renews each due subscription once with both replicas scheduling renewals', async () => {
  let now = await renewals();
  for (const deadline = Date.now() + 120_000; now.paid < COUNT && Date.now() < deadline; ) {
    await new Promise(r => setTimeout(r, 300));
    now = await renewals();
  }
  expect(now).toEqual({ paid: COUNT, duplicated_periods: 0, payments: COUNT, charges: COUNT });
});

it('holds an idempotency key across replicas', async () => {
  const body = {
    name: 'Pro',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 1500, price_currency: 'usd' }],
  };
  const key = { 'idempotency-key': `replicas-${randomUUID()}` };
  const first = await on(0, 'POST', '/v1/products/', body, key);
  const second = await on(1, 'POST', '/v1/products/', body, key);
  expect(first.status).toBe(201);
  expect(second.status).toBe(201);
  expect(second.body.id).toBe(first.body.id);
  const listed = (await on(1, 'GET', '/v1/products/?limit=100')).body.items.filter((p: any) => p.name === 'Pro');
  expect(listed).toHaveLength(1);
});

it('delivers each webhook once with both replicas delivering', async () => {
  const endpoint = await on(0, 'POST', '/v1/webhooks/endpoints', {
    url: receiver.url('/merchant'),
    format: 'raw',
    events: ['order.paid'],
  });
  expect(endpoint.status).toBe(201);
  const product = await on(0, 'POST', '/v1/products/', {
    name: 'Plan',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 900, price_currency: 'usd' }],
  });
  const sell = async (replica: number, email: string) => {
    const checkout = await on(replica, 'POST', '/v1/checkouts/', {
      products: [product.body.id],
      customer_email: email,
    });
    const confirmed = await call(
      replicas[replica].baseUrl,
      'POST',
      `/v1/checkouts/client/${checkout.body.client_secret}/confirm`,
      { body: { confirmation_token_id: 'pm_card_visa' } },
    );
    expect(confirmed.status).toBe(200);
  };
  // Five sales on alternating replicas; the endpoint's messages go out in order, so once the fifth has
  // arrived every earlier one has, and a second delivery of any would be among them.
  for (let i = 0; i < 5; i++) await sell(i % 2, `buyer-${i}@example.com`);
  await receiver.until(() => receiver.on('/merchant').length >= 5, 'five order.paid webhooks');
  const received = receiver.on('/merchant');
  const ids = received.map(r => r.headers['webhook-id']);
  expect(new Set(ids).size).toBe(ids.length);
  const orders = new Set(received.map(r => JSON.parse(r.body).data.id));
  expect(orders.size).toBe(5);
});
