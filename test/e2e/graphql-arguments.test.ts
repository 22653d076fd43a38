import { Order } from '../../subgraphs/billing/orders/order.entity.js';
import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The graph's argument conventions through the gateway (docs/graphql.md#filters, #statuses, #nested-lists):
 * a `filter` input on the lists, statuses as enums (the same words as REST), and a subscription's orders
 * as a page. A subscription with three orders (paid, paid, refunded) and one open checkout.
 */
let stack: TestStack;
let tenant: Tenant;
const ids: Record<string, string> = {};

const gql = (query: string, variables?: Record<string, unknown>) =>
  call(stack.production.baseUrl, 'POST', '/graphql', { token: tenant.oat, body: { query, variables } });

beforeAll(async () => {
  stack = await sharedTestStack();
  tenant = await createTenant(stack.production);
  const fx = new BillingFixtures(stack.production);
  const { product, price } = await fx.product(tenant.organizationId, { amount: 1000 });
  const customer = await fx.customer(tenant.organizationId);
  const subscription = await fx.subscription({
    organizationId: tenant.organizationId,
    customerId: customer.id,
    productId: product.id,
    priceIds: [price.id],
    status: SubscriptionStatus.PAST_DUE,
  });
  const em = stack.production.environment.billing.orm.em.fork();
  for (const [day, status] of [
    [1, 'paid'],
    [2, 'paid'],
    [3, 'refunded'],
  ] as const) {
    const order = em.create(Order, {
      organizationId: tenant.organizationId,
      customerId: customer.id,
      productId: product.id,
      subscriptionId: subscription.id,
      status,
      billingReason: day === 1 ? 'subscription_create' : 'subscription_cycle',
      subtotalAmount: 1000n,
      createdAt: new Date(Date.UTC(2026, 0, day)),
    } as Order);
    ids[`order${day}`] = order.id;
  }
  // A long-lived subscription with 12 orders, and one with none: pages of several subscriptions at once
  // (statuses the filter tests above do not count).
  for (const [name, count] of [
    ['long', 12],
    ['empty', 0],
  ] as const) {
    const other = await fx.subscription({
      organizationId: tenant.organizationId,
      customerId: (await fx.customer(tenant.organizationId)).id,
      productId: product.id,
      priceIds: [price.id],
      status: SubscriptionStatus.UNPAID,
    });
    ids[name] = other.id;
    for (let month = 0; month < count; month++) {
      const order = em.create(Order, {
        organizationId: tenant.organizationId,
        customerId: other.customerId,
        productId: product.id,
        subscriptionId: other.id,
        status: 'partially_refunded',
        billingReason: month === 0 ? 'subscription_create' : 'subscription_cycle',
        subtotalAmount: 1000n,
        createdAt: new Date(Date.UTC(2025, month, 15)),
      } as Order);
      ids[`${name}${month}`] = order.id;
    }
  }
  await em.flush();
  const checkout = await call(stack.production.baseUrl, 'POST', '/v1/checkouts/', {
    token: tenant.oat,
    body: { products: [product.id] },
  });
  expect(checkout.status).toBe(201);
  Object.assign(ids, { subscription: subscription.id, checkout: checkout.body.id, product: product.id });
});

describe('statuses are enums, answered with the same words as REST', () => {
  it('declares the enums in the graph', async () => {
    const res = await gql(
      '{ s: __type(name: "SubscriptionStatus") { kind enumValues { name } } o: __type(name: "OrderStatus") { kind } c: __type(name: "CheckoutStatus") { kind } }',
    );
    expect(res.body.data.s.kind).toBe('ENUM');
    expect(res.body.data.s.enumValues.map((v: { name: string }) => v.name)).toContain('past_due');
    expect([res.body.data.o.kind, res.body.data.c.kind]).toEqual(['ENUM', 'ENUM']);
  });

  it('filters subscriptions, orders and checkouts by status, and refuses a word that is no status', async () => {
    const res = await gql(`{
      due: subscriptions(filter: { status: [past_due] }) { items { id status } }
      active: subscriptions(filter: { status: [active] }) { pagination { totalCount } }
      paid: orders(filter: { status: [paid] }) { items { id status } }
      open: checkouts(filter: { status: [open] }) { items { id status } }
      done: checkouts(filter: { status: [succeeded] }) { pagination { totalCount } }
    }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.due.items).toEqual([{ id: ids.subscription, status: 'past_due' }]);
    expect(res.body.data.active.pagination.totalCount).toBe(0);
    expect(res.body.data.paid.items).toEqual([
      { id: ids.order2, status: 'paid' },
      { id: ids.order1, status: 'paid' },
    ]);
    expect(res.body.data.open.items).toEqual([{ id: ids.checkout, status: 'open' }]);
    expect(res.body.data.done.pagination.totalCount).toBe(0);
    const wrong = await gql('{ orders(filter: { status: [settled] }) { items { id } } }');
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('takes the statuses as string variables too, as the REST operations send them', async () => {
    const res = await gql(
      'query($s: [OrderStatus!]) { orders(filter: { status: $s }) { pagination { totalCount } } }',
      {
        s: ['refunded'],
      },
    );
    expect(res.body.data.orders.pagination.totalCount).toBe(1);
  });
});

describe('filter on the lists, old arguments still answered', () => {
  it('checkouts: filter and the deprecated arguments it replaces give the same page', async () => {
    const byFilter = await gql('query($p: [ID!]) { checkouts(filter: { productId: $p }) { items { id } } }', {
      p: [ids.product],
    });
    const byArgument = await gql('query($p: [ID!]) { checkouts(productId: $p) { items { id } } }', {
      p: [ids.product],
    });
    expect(byFilter.body.data.checkouts.items).toEqual([{ id: ids.checkout }]);
    expect(byArgument.body.data).toEqual(byFilter.body.data);
    const deprecated = await gql(
      '{ __type(name: "Query") { fields { name args(includeDeprecated: true) { name isDeprecated } } } }',
    );
    const checkouts = deprecated.body.data.__type.fields.find((f: { name: string }) => f.name === 'checkouts');
    expect(
      checkouts.args
        .filter((a: { isDeprecated: boolean }) => a.isDeprecated)
        .map((a: { name: string }) => a.name)
        .sort(),
    ).toEqual(['customerId', 'organizationId', 'productId', 'query', 'status']);
  });
});

describe("a subscription's orders are a page", () => {
  it('pages them newest first with pagination, and filters them', async () => {
    const res = await gql(
      `query($id: ID!) { subscription(id: $id) {
        first: orders(limit: 2) { items { id } pagination { totalCount maxPage } }
        second: orders(limit: 2, page: 2) { items { id } }
        paid: orders(filter: { status: [paid] }, sorting: ["created_at"]) { items { id } }
      } }`,
      { id: ids.subscription },
    );
    expect(res.body.errors).toBeUndefined();
    const s = res.body.data.subscription;
    expect(s.first).toEqual({
      items: [{ id: ids.order3 }, { id: ids.order2 }],
      pagination: { totalCount: 3, maxPage: 2 },
    });
    expect(s.second.items).toEqual([{ id: ids.order1 }]);
    expect(s.paid.items).toEqual([{ id: ids.order1 }, { id: ids.order2 }]);
  });

  it("through a page of subscriptions, each one's own orders only, each page and total its own", async () => {
    const res = await gql(
      `{ subscriptions { items { id
          orders(limit: 5, page: 2) { items { id } pagination { totalCount maxPage } } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const pages = Object.fromEntries(
      res.body.data.subscriptions.items.map((s: { id: string; orders: unknown }) => [s.id, s.orders]),
    );
    expect(pages).toEqual({
      [ids.subscription]: { items: [], pagination: { totalCount: 3, maxPage: 1 } },
      // Newest first: the second page of five is months 6 down to 2.
      [ids.long]: {
        items: [6, 5, 4, 3, 2].map(month => ({ id: ids[`long${month}`] })),
        pagination: { totalCount: 12, maxPage: 3 },
      },
      [ids.empty]: { items: [], pagination: { totalCount: 0, maxPage: 0 } },
    });
  });

  it('answers a deep page, the last partial page and a page past the end with the exact total', async () => {
    const res = await gql(
      `query($id: ID!) { subscription(id: $id) {
        deep: orders(limit: 3, page: 3, sorting: ["created_at"]) { items { id } pagination { totalCount } }
        last: orders(limit: 5, page: 3) { items { id } pagination { totalCount } }
        past: orders(limit: 5, page: 9) { items { id } pagination { totalCount maxPage } }
      } }`,
      { id: ids.long },
    );
    expect(res.body.errors).toBeUndefined();
    const s = res.body.data.subscription;
    expect(s.deep).toEqual({
      items: [6, 7, 8].map(month => ({ id: ids[`long${month}`] })),
      pagination: { totalCount: 12 },
    });
    expect(s.last).toEqual({
      items: [1, 0].map(month => ({ id: ids[`long${month}`] })),
      pagination: { totalCount: 12 },
    });
    expect(s.past).toEqual({ items: [], pagination: { totalCount: 12, maxPage: 3 } });
  });
});
