import { Order } from '../../subgraphs/billing/orders/order.entity.js';
import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

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
  stack = await startTestStack('graphql_arguments');
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
  await em.flush();
  const checkout = await call(stack.production.baseUrl, 'POST', '/v1/checkouts/', {
    token: tenant.oat,
    body: { products: [product.id] },
  });
  expect(checkout.status).toBe(201);
  Object.assign(ids, { subscription: subscription.id, checkout: checkout.body.id, product: product.id });
});
afterAll(async () => {
  await stack?.close();
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

  it("through a page of subscriptions, each one's own orders only", async () => {
    const res = await gql('{ subscriptions { items { id orders { pagination { totalCount } } } } }');
    expect(res.body.data.subscriptions.items).toEqual([
      { id: ids.subscription, orders: { pagination: { totalCount: 3 } } },
    ]);
  });
});
