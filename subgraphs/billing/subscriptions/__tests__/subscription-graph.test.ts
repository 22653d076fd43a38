import { isBackgroundWork } from '../../../../test/support/sql-statements.js';
import { graphql } from 'graphql';
import { SubscriptionStatus } from '../../shared/enums.js';
import { BillingFixtures } from '../../../../test/support/subscription-fixtures.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../../../../test/support/stack.js';

/**
 * The graph: subscriptions with their customer, product, discount and organization (identity) in one
 * request through the gateway, at a constant number of SQL queries per page whatever its size, and
 * reference resolvers that batch and never cross tenants.
 */
let stack: TestStack;
let alice: Tenant;
let bob: Tenant;
const customerIds: string[] = [];
let aliceSubscription: string;
/** Every SQL statement the billing subgraph sends for a request while `recording` is on. */
const statements: string[] = [];
let recording = false;

beforeAll(async () => {
  stack = await startTestStack('subscription_graph');
  alice = await createTenant(stack.production, { name: 'Alice Co' });
  bob = await createTenant(stack.production);
  const fx = new BillingFixtures(stack.production);
  const products = [];
  for (let i = 0; i < 20; i++)
    products.push(await fx.product(alice.organizationId, { name: `Plan ${i}`, amount: 100 * i }));
  const discount = await fx.discount(alice.organizationId, 'Launch');
  for (let i = 0; i < 110; i++) {
    const customer = await fx.customer(alice.organizationId, { email: `c${i}@example.com` });
    customerIds.push(customer.id);
    const { product, price } = products[i % products.length];
    const s = await fx.subscription({
      organizationId: alice.organizationId,
      customerId: customer.id,
      productId: product.id,
      priceIds: [price.id],
      discountId: i % 3 === 0 ? discount.id : null,
      startedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      status: i % 7 === 0 ? SubscriptionStatus.CANCELED : SubscriptionStatus.ACTIVE,
    });
    if (i === 0) aliceSubscription = s.id;
  }
  // Count statements at the connection every billing query goes through.
  const connection = stack.production.environment.billing.orm.em.getConnection() as unknown as {
    executeQuery: (...args: any[]) => Promise<unknown>;
  };
  const original = connection.executeQuery.bind(connection);
  connection.executeQuery = (query: string, ...rest: unknown[]) => {
    if (recording && !isBackgroundWork(query)) statements.push(query);
    return original(query, ...rest);
  };
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const gql = (token: string, query: string, variables?: Record<string, unknown>) =>
  call(stack.production.baseUrl, 'POST', '/graphql', { token, body: { query, variables } });

const PAGE = `query Page($limit: Int!) {
  subscriptions(limit: $limit, sorting: ["started_at"]) {
    items {
      id status amount
      customer { id email }
      product { id name prices { id priceAmount } }
      prices { id amountType }
      discount { id name basisPoints }
      organization { id name slug }
    }
    pagination { totalCount maxPage }
  }
}`;

async function sqlFor(token: string, query: string, variables: Record<string, unknown>) {
  statements.length = 0;
  recording = true;
  try {
    const res = await gql(token, query, variables);
    return { res, count: statements.length, statements: [...statements] };
  } finally {
    recording = false;
  }
}

describe('subscriptions in the graph', () => {
  it('returns subscriptions with customer, product, discount and organization in one request', async () => {
    const { res } = await sqlFor(alice.oat, PAGE, { limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const [first] = res.body.data.subscriptions.items;
    expect(first).toMatchObject({
      id: aliceSubscription,
      status: 'canceled',
      amount: 0,
      customer: { id: customerIds[0], email: 'c0@example.com' },
      product: { name: 'Plan 0', prices: [{ priceAmount: 0 }] },
      prices: [{ amountType: 'fixed' }],
      discount: { name: 'Launch', basisPoints: 1000 },
      organization: { id: alice.organizationId, name: 'Alice Co', slug: alice.slug },
    });
    expect(res.body.data.subscriptions.pagination).toEqual({ totalCount: 110, maxPage: 37 });
  });

  it('costs the same number of SQL queries for a page of 100 as for a page of 2', async () => {
    const small = await sqlFor(alice.oat, PAGE, { limit: 2 });
    const large = await sqlFor(alice.oat, PAGE, { limit: 100 });
    expect(small.res.body.errors).toBeUndefined();
    expect(large.res.body.errors).toBeUndefined();
    expect(large.res.body.data.subscriptions.items).toHaveLength(100);
    expect(new Set(large.res.body.data.subscriptions.items.map((s: any) => s.customer.id)).size).toBe(100);
    // The read path: one statement for the page with every embedded object joined in, one for the
    // exact total (a full page cannot tell it). Nothing per row, nothing per embedded type.
    expect(large.statements.map(s => s.slice(0, 40))).toHaveLength(2);
    expect(small.count).toBe(2);
  });

  it('serves a REST list page in two statements and a REST get in one', async () => {
    statements.length = 0;
    recording = true;
    try {
      const page = await call(stack.production.baseUrl, 'GET', '/v1/subscriptions/?limit=100', { token: alice.oat });
      expect(page.status).toBe(200);
      expect(page.body.items).toHaveLength(100);
      expect(page.body.items[0].customer.email).toMatch(/@example\.com$/);
      expect(statements).toHaveLength(2);
      statements.length = 0;
      const one = await call(stack.production.baseUrl, 'GET', `/v1/subscriptions/${aliceSubscription}`, {
        token: alice.oat,
      });
      expect(one.status).toBe(200);
      expect(one.body.product.prices).toHaveLength(1);
      expect(statements).toHaveLength(1);
    } finally {
      recording = false;
    }
  });

  it('serves the products, discounts and customers lists and gets through the same path', async () => {
    const count = async (path: string) => {
      statements.length = 0;
      recording = true;
      try {
        const res = await call(stack.production.baseUrl, 'GET', path, { token: alice.oat });
        expect(res.status).toBe(200);
        return { body: res.body, statements: statements.length };
      } finally {
        recording = false;
      }
    };
    // A full page: the page (with every product's prices) and its count.
    const products = await count('/v1/products/?limit=10');
    expect(products.body.items[0].prices).toHaveLength(1);
    expect(products.body.pagination.total_count).toBe(20);
    expect(products.statements).toBe(2);
    expect((await count(`/v1/products/${products.body.items[0].id}`)).statements).toBe(1);
    // A page that is not full tells its total itself: one statement.
    const discounts = await count('/v1/discounts/');
    expect(discounts.body.items).toHaveLength(1);
    expect(discounts.statements).toBe(1);
    const customers = await count('/v1/customers/?limit=100');
    expect(customers.body.pagination.total_count).toBe(110);
    expect(customers.statements).toBe(2);
    expect((await count(`/v1/customers/${customerIds[0]}`)).statements).toBe(1);
  });

  it('answers Organization.subscriptions and Customer.subscriptions', async () => {
    const res = await gql(
      alice.oat,
      `{
      organizations { items { id subscriptions(limit: 5, filter: { status: [canceled] }) { items { id status } pagination { totalCount } } } }
      customers(limit: 2, sorting: ["email"]) { items { email subscriptions { items { id customer { email } } pagination { totalCount } } } }
    }`,
    );
    expect(res.body.errors).toBeUndefined();
    const org = res.body.data.organizations.items[0];
    expect(org.subscriptions.pagination.totalCount).toBe(16);
    expect(org.subscriptions.items.every((s: any) => s.status === 'canceled')).toBe(true);
    for (const c of res.body.data.customers.items) {
      expect(c.subscriptions.pagination.totalCount).toBe(1);
      expect(c.subscriptions.items[0].customer.email).toBe(c.email);
    }
  });

  it('never resolves another tenant’s subscription, through the gateway or _entities', async () => {
    const foreign = await gql(bob.oat, 'query($id: ID!) { subscription(id: $id) { id } }', { id: aliceSubscription });
    expect(foreign.body.errors[0].extensions.code).toBe('ResourceNotFound');
    const list = await gql(bob.oat, '{ subscriptions { items { id } pagination { totalCount } } }');
    expect(list.body.data.subscriptions).toEqual({ items: [], pagination: { totalCount: 0 } });
    const billing = stack.production.environment.billing;
    const entities = `query($r: [_Any!]!) { _entities(representations: $r) { ... on BillingSubscription { id customer { email } } } }`;
    const representations = [{ __typename: 'BillingSubscription', id: aliceSubscription }];
    const principalOf = async (token: string) =>
      stack.production.environment.identity.principals.resolve(`Bearer ${token}`);
    const asBob = await graphql({
      schema: billing.schema,
      source: entities,
      variableValues: { r: representations },
      contextValue: billing.createContext(await principalOf(bob.oat), 't1'),
    });
    expect(asBob.data?._entities).toEqual([null]);
    const asAlice = await graphql({
      schema: billing.schema,
      source: entities,
      variableValues: { r: representations },
      contextValue: billing.createContext(await principalOf(alice.oat), 't2'),
    });
    expect(asAlice.data?._entities).toEqual([{ id: aliceSubscription, customer: { email: 'c0@example.com' } }]);
  });
});
