import { Order } from '../order.entity.js';
import { BillingFixtures } from '../../../../test/support/subscription-fixtures.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../../../../test/support/stack.js';

/**
 * A full page of orders and its exact count run on one connection taken from the pool once: a count that
 * took a connection of its own waited for the pool a second time, behind every request that had arrived
 * meanwhile, holding the page's rows (docs/performance.md).
 */
let stack: TestStack;
let tenant: Tenant;

interface PooledClient {
  query: (...args: any[]) => Promise<unknown>;
}

/** Each statement the billing pool's connections run, with the checkout (taking from the pool) it ran in. */
const ran: { text: string; checkout: number }[] = [];

beforeAll(async () => {
  stack = await startTestStack('order_list_connection');
  tenant = await createTenant(stack.production);
  const fx = new BillingFixtures(stack.production);
  const { product, price } = await fx.product(tenant.organizationId, { name: 'Plan', amount: 900 });
  const customer = await fx.customer(tenant.organizationId, { email: 'buyer@example.com' });
  const em = stack.production.environment.billing.orm.em.fork();
  for (let i = 0; i < 12; i++)
    em.create(Order, {
      organizationId: tenant.organizationId,
      customerId: customer.id,
      productId: product.id,
      productPriceId: price.id,
      status: 'paid',
      billingReason: 'purchase',
      subtotalAmount: 900n,
      invoiceNumber: `LIST-${i}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
    } as Order);
  await em.flush();

  // Number every checkout of a connection from the billing pool and note which one each statement ran in.
  const pool = (await stack.production.environment.billing.orm.em.getConnection().getNativeClient()) as unknown as {
    on(event: 'acquire', listener: (client: PooledClient) => void): void;
  };
  const checkoutOf = new WeakMap<PooledClient, number>();
  let checkouts = 0;
  pool.on('acquire', client => {
    if (!checkoutOf.has(client)) {
      const query = client.query.bind(client);
      client.query = (config: unknown, ...rest: unknown[]) => {
        const text = typeof config === 'string' ? config : (config as { text?: string }).text;
        if (text) ran.push({ text, checkout: checkoutOf.get(client)! });
        return query(config, ...rest);
      };
    }
    checkouts += 1;
    checkoutOf.set(client, checkouts);
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

it('a full page and its count take one connection from the pool', async () => {
  ran.length = 0;
  const res = await call(stack.production.baseUrl, 'GET', '/v1/orders/?limit=5', { token: tenant.oat });
  expect(res.status).toBe(200);
  expect(res.body.items.map((o: { invoice_number: string }) => o.invoice_number)).toEqual([
    'LIST-11',
    'LIST-10',
    'LIST-9',
    'LIST-8',
    'LIST-7',
  ]);
  expect(res.body.pagination).toEqual({ total_count: 12, max_page: 3 });
  const page = ran.find(s => /^select .* from \(select o\.\* from billing\.orders o /.test(s.text));
  const count = ran.find(s => s.text.startsWith('select count(*) as n from billing.orders o '));
  expect(page).toBeDefined();
  expect(count).toBeDefined();
  expect(count!.checkout).toBe(page!.checkout);
});
