import { isBackgroundWork, settleJobs } from '../support/sql-statements.js';
import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Checkouts over plain HTTP in the sandbox (test processor), with a clock the test moves: prices of
 * every kind, discounts and their rules, the customer a sale lands on, upgrading a free subscription,
 * expiry, the outbox rows of a sale, and the graph's orders in a constant number of statements.
 */
const clock = new ManualClock(new Date('2026-03-01T10:00:00Z'));
let stack: TestStack;
let owner: Tenant;
let base: string;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
const client = (method: string, secret: string, suffix = '', body?: unknown) =>
  call(base, method, `/v1/checkouts/client/${secret}${suffix}`, { body });
const product = async (body: Record<string, unknown>) => {
  const res = await api('POST', '/v1/products/', { recurring_interval: 'month', ...body });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const sell = async (
  body: Record<string, unknown>,
  confirm: Record<string, unknown> = { confirmation_token_id: 'pm_card_visa' },
) => {
  const checkout = await api('POST', '/v1/checkouts/', body);
  expect(checkout.status).toBe(201);
  const confirmed = await client('POST', checkout.body.client_secret, '/confirm', confirm);
  expect(confirmed.status).toBe(200);
  const orders = await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`);
  return { checkout: checkout.body, confirmed: confirmed.body, order: orders.body.items[0] };
};

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

describe('amounts', () => {
  it('takes a pay-what-you-want amount within the bounds, and refuses one outside at `amount`', async () => {
    const id = await product({
      name: 'Tip jar',
      recurring_interval: null,
      prices: [{ amount_type: 'custom', minimum_amount: 500, maximum_amount: 5000, preset_amount: 1000 }],
    });
    const preset = await api('POST', '/v1/checkouts/', { products: [id] });
    expect(preset.body).toMatchObject({ amount: 1000, total_amount: 1000 });
    const low = await api('POST', '/v1/checkouts/', { products: [id], amount: 100 });
    expect(low.status).toBe(422);
    expect(low.body.detail[0].loc).toEqual(['body', 'amount']);
    const chosen = await client('PATCH', preset.body.client_secret, '', { amount: 2500 });
    expect(chosen.body).toMatchObject({ amount: 2500, total_amount: 2500 });
  });

  it('bills seats × the tier price of a seat-based price', async () => {
    const id = await product({
      name: 'Team plan',
      prices: [
        {
          amount_type: 'seat_based',
          seat_tiers: {
            tiers: [
              { min_seats: 1, max_seats: 4, price_per_seat: 1000 },
              { min_seats: 5, price_per_seat: 800 },
            ],
          },
        },
      ],
    });
    const { order } = await sell({ products: [id], seats: 5, customer_email: 'team@example.com' });
    expect(order).toMatchObject({ subtotal_amount: 4000, total_amount: 4000, seats: 5 });
  });
});

describe('discounts', () => {
  it('applies a fixed discount by id, and refuses one restricted to another product or not yet valid', async () => {
    const pro = await product({ name: 'Pro', prices: [{ amount_type: 'fixed', price_amount: 3000 }] });
    const other = await product({ name: 'Other', prices: [{ amount_type: 'fixed', price_amount: 3000 }] });
    const fixed = await api('POST', '/v1/discounts/', {
      name: 'Ten off',
      type: 'fixed',
      duration: 'once',
      amount: 1000,
      currency: 'usd',
      products: [pro],
    });
    const later = await api('POST', '/v1/discounts/', {
      name: 'Later',
      type: 'percentage',
      duration: 'once',
      basis_points: 5000,
      starts_at: '2026-04-01T00:00:00Z',
    });
    const { checkout, order } = await sell({
      products: [pro],
      discount_id: fixed.body.id,
      customer_email: 'd@example.com',
    });
    expect(checkout).toMatchObject({ discount_amount: 1000, net_amount: 2000, total_amount: 2000 });
    expect(order).toMatchObject({
      subtotal_amount: 3000,
      discount_amount: 1000,
      net_amount: 2000,
      discount_id: fixed.body.id,
    });
    for (const [productId, discountId] of [
      [other, fixed.body.id],
      [pro, later.body.id],
    ]) {
      const refused = await api('POST', '/v1/checkouts/', { products: [productId], discount_id: discountId });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(['body', 'discount_id']);
    }
  });
});

describe('customers and subscriptions', () => {
  it('lands on the existing customer by external id, and upgrades a free subscription instead of adding one', async () => {
    const customer = await api('POST', '/v1/customers/', { email: 'known@example.com', external_id: 'ext-42' });
    const free = await product({ name: 'Free', prices: [{ amount_type: 'free' }] });
    const paid = await product({ name: 'Paid', prices: [{ amount_type: 'fixed', price_amount: 1500 }] });
    const subscription = await api('POST', '/v1/subscriptions/', { product_id: free, customer_id: customer.body.id });
    expect(subscription.status).toBe(201);
    const { order } = await sell({
      products: [paid],
      external_customer_id: 'ext-42',
      subscription_id: subscription.body.id,
    });
    expect(order).toMatchObject({
      customer_id: customer.body.id,
      subscription_id: subscription.body.id,
      billing_reason: 'subscription_update',
      total_amount: 1500,
    });
    const subscriptions = await api('GET', `/v1/subscriptions/?customer_id=${customer.body.id}`);
    expect(subscriptions.body.items).toEqual([
      expect.objectContaining({ id: subscription.body.id, product_id: paid, amount: 1500, status: 'active' }),
    ]);
  });

  it('records the sale in the outbox in the order Polar sends the webhooks', async () => {
    const id = await product({ name: 'Evented', prices: [{ amount_type: 'fixed', price_amount: 700 }] });
    const created = await api('POST', '/v1/checkouts/', { products: [id], customer_email: 'events@example.com' });
    clock.advance(1000);
    await client('POST', created.body.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    const checkout = created.body;
    const order = (await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items[0];
    const em = stack.sandbox.environment.billing.orm.em.fork();
    const rows = await em
      .getConnection()
      .execute<{ type: string; payload: { id: string } }[]>(
        `select type, payload from billing.events where organization_id = ? and (payload->>'id' in (?, ?) or payload->>'checkout_id' = ? or type like 'customer.%' and payload->>'email' = ?) order by created_at, id`,
        [owner.organizationId, checkout.id, order.id, checkout.id, 'events@example.com'],
      );
    expect(rows.map(r => r.type)).toEqual([
      'checkout.created',
      'customer.created',
      'checkout.updated',
      'subscription.created',
      'subscription.active',
      'order.created',
      'order.updated',
      'order.paid',
      'checkout.updated',
    ]);
    const paid = rows.find(r => r.type === 'order.paid')!.payload;
    expect(paid).toEqual((await api('GET', `/v1/orders/${order.id}`)).body);
  });
});

describe('expiry and repeated confirms', () => {
  it('answers 410 after 24 hours and shows the checkout expired', async () => {
    const id = await product({ name: 'Slow', prices: [{ amount_type: 'fixed', price_amount: 100 }] });
    const checkout = await api('POST', '/v1/checkouts/', { products: [id], customer_email: 'late@example.com' });
    clock.advance(24 * 3600 * 1000 + 1000);
    try {
      expect((await client('GET', checkout.body.client_secret)).body.status).toBe('expired');
      const late = await client('POST', checkout.body.client_secret, '/confirm', {
        confirmation_token_id: 'pm_card_visa',
      });
      expect(late.status).toBe(410);
      expect(late.body).toEqual({ error: 'ExpiredCheckoutError', detail: 'This checkout session has expired.' });
    } finally {
      clock.advance(-(24 * 3600 * 1000 + 1000));
    }
  });

  it('refuses a second confirm with 403 NotOpenCheckout', async () => {
    const id = await product({
      name: 'Once',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 100 }],
    });
    const { checkout } = await sell({ products: [id], customer_email: 'twice@example.com' });
    const again = await client('POST', checkout.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('NotOpenCheckout');
  });
});

describe('the graph', () => {
  it('serves orders with their customer, product, subscription and items, and subscriptions with their orders, in constant statements', async () => {
    // The sales above left grant jobs behind; they run on this connection too.
    await settleJobs(stack.sandbox.environment.billing, clock);
    const connection = stack.sandbox.environment.billing.orm.em.getConnection() as unknown as {
      executeQuery: (...args: any[]) => Promise<unknown>;
    };
    const statements: string[] = [];
    const original = connection.executeQuery.bind(connection);
    connection.executeQuery = (query: string, ...rest: unknown[]) => {
      if (!isBackgroundWork(query)) statements.push(query);
      return original(query, ...rest);
    };
    try {
      const gql = (query: string) => call(base, 'POST', '/graphql', { token: owner.oat, body: { query } });
      const orders = await gql(
        '{ orders(limit: 100) { items { id totalAmount customer { email } product { name } subscription { id status } items { label } } pagination { totalCount } } }',
      );
      expect(orders.body.errors).toBeUndefined();
      expect(orders.body.data.orders.items.length).toBeGreaterThan(3);
      expect(statements).toHaveLength(1);
      statements.length = 0;
      const subscriptions = await gql(
        '{ subscriptions(limit: 100) { items { id orders { items { id totalAmount billingReason } pagination { totalCount } } } } }',
      );
      expect(subscriptions.body.errors).toBeUndefined();
      const withOrders = subscriptions.body.data.subscriptions.items.filter(
        (s: { orders: { items: unknown[] } }) => s.orders.items.length,
      );
      expect(withOrders.length).toBeGreaterThan(2);
      expect(statements).toHaveLength(2);
    } finally {
      connection.executeQuery = original;
    }
  });
});

describe('orders', () => {
  it('updates the billing details with order.updated, and exports the orders as CSV', async () => {
    const id = await product({
      name: 'Billed',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 1234 }],
    });
    const { order } = await sell({ products: [id], customer_email: 'billing@example.com' });
    const updated = await api('PATCH', `/v1/orders/${order.id}`, {
      billing_name: 'Billing Person Ltd',
      billing_address: { line1: '1 Main St', postal_code: '75001', city: 'Paris', country: 'FR' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      billing_name: 'Billing Person Ltd',
      billing_address: { line1: '1 Main St', postal_code: '75001', city: 'Paris', country: 'FR' },
    });
    expect((await api('GET', `/v1/orders/${order.id}`)).body.billing_name).toBe('Billing Person Ltd');
    const em = stack.sandbox.environment.billing.orm.em.fork();
    const events = await em
      .getConnection()
      .execute<{ n: string }[]>(
        `select count(*) as n from billing.events where type = 'order.updated' and payload->>'billing_name' = ?`,
        ['Billing Person Ltd'],
      );
    expect(Number(events[0].n)).toBe(1);

    const csv = await api('GET', '/v1/orders/export');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,status,billing_reason,invoice_number,customer_id,customer_email,product_id,product_name,subscription_id,currency,subtotal_amount,discount_amount,net_amount,tax_amount,total_amount,refunded_amount',
    );
    const row = lines.find(l => l.startsWith(order.id))!;
    expect(row).toContain(',paid,purchase,');
    expect(row).toContain(',billing@example.com,');
    expect(row.endsWith(',usd,1234,0,1234,0,1234,0')).toBe(true);
  });
});

describe('confirm retries and the list', () => {
  it('takes another e-mail and card after a refused method, and lists checkouts by status', async () => {
    const id = await product({
      name: 'Retry',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 300 }],
    });
    const checkout = await api('POST', '/v1/checkouts/', { products: [id], customer_email: 'first@example.com' });
    const unknown = await client('POST', checkout.body.client_secret, '/confirm', {
      confirmation_token_id: 'pm_card_nope',
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'confirmation_token_id']);
    const paid = await client('POST', checkout.body.client_secret, '/confirm', {
      confirmation_token_id: 'pm_card_amex',
      customer_email: 'second@example.com',
    });
    expect(paid.status).toBe(200);
    const [order] = (await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items;
    expect(order.customer.email).toBe('second@example.com');

    const succeeded = await api('GET', `/v1/checkouts/?status=succeeded&product_id=${id}`);
    expect(succeeded.body.items.map((c: { id: string }) => c.id)).toEqual([checkout.body.id]);
    expect((await api('GET', `/v1/checkouts/?status=open&product_id=${id}`)).body.items).toEqual([]);
  });
});

describe('/readyz', () => {
  it('says who takes the payments, and warns when production takes none', async () => {
    const sandbox = await call(base, 'GET', '/readyz');
    expect(sandbox.body).toMatchObject({
      status: 'ok',
      payment_processor: { name: 'test', takes_real_money: false, warning: null },
    });
    const production = await call(stack.production.baseUrl, 'GET', '/readyz');
    expect(production.body.payment_processor).toMatchObject({ name: 'none', takes_real_money: false });
    expect(production.body.payment_processor.warning).toContain('STRIPE_SECRET_KEY');
  });
});
