import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * `filter` on every list of the graph, through the gateway (docs/graphql.md#filters): each list field
 * takes one `filter` input, its separate arguments stay but are deprecated, and a field of `filter` wins
 * over its old argument. Core API lists, `Organization.products`, the portal's lists, webhooks and
 * identity's lists.
 */
let stack: TestStack;
let tenant: Tenant;
let portalToken: string;
const ids: Record<string, string> = {};

const gql = (query: string, variables?: Record<string, unknown>, token = tenant.oat) =>
  call(stack.production.baseUrl, 'POST', '/graphql', { token, body: { query, variables } });
const rest = (method: string, path: string, body?: unknown) =>
  call(stack.production.baseUrl, method, path, { token: tenant.oat, body });

beforeAll(async () => {
  stack = await sharedTestStack();
  tenant = await createTenant(stack.production);
  const fx = new BillingFixtures(stack.production);
  const monthly = await fx.product(tenant.organizationId, { name: 'Monthly plan', amount: 1000 });
  const yearly = await fx.product(tenant.organizationId, { name: 'Yearly plan', amount: 9000 });
  const archived = await rest('POST', '/v1/products/', {
    name: 'Old one-off',
    prices: [{ amount_type: 'fixed', price_amount: 100 }],
  });
  expect((await rest('PATCH', `/v1/products/${archived.body.id}`, { is_archived: true })).status).toBe(200);
  const customer = await fx.customer(tenant.organizationId);
  const subscription = await fx.subscription({
    organizationId: tenant.organizationId,
    customerId: customer.id,
    productId: monthly.product.id,
    priceIds: [monthly.price.id],
    status: SubscriptionStatus.ACTIVE,
  });
  await fx.subscription({
    organizationId: tenant.organizationId,
    customerId: customer.id,
    productId: yearly.product.id,
    priceIds: [yearly.price.id],
    status: SubscriptionStatus.CANCELED,
    endedAt: new Date(),
  });
  const discount = await rest('POST', '/v1/discounts/', {
    name: 'Spring sale',
    type: 'percentage',
    duration: 'once',
    basis_points: 1000,
  });
  await rest('POST', '/v1/discounts/', {
    name: 'Winter sale',
    type: 'percentage',
    duration: 'once',
    basis_points: 500,
  });
  const link = await rest('POST', '/v1/checkout-links/', {
    payment_processor: 'stripe',
    products: [yearly.product.id],
  });
  await rest('POST', '/v1/checkout-links/', { payment_processor: 'stripe', products: [monthly.product.id] });
  const benefit = await rest('POST', '/v1/benefits/', {
    type: 'custom',
    description: 'Priority support',
    properties: { note: 'Hi' },
  });
  const endpoint = await rest('POST', '/v1/webhooks/endpoints', {
    url: 'https://example.com/hook',
    format: 'raw',
    events: ['order.created'],
  });
  for (const res of [discount, link, benefit, endpoint]) expect(res.status).toBe(201);
  portalToken = (await rest('POST', '/v1/customer-sessions/', { customer_id: customer.id })).body.token;
  Object.assign(ids, {
    monthly: monthly.product.id,
    yearly: yearly.product.id,
    archived: archived.body.id,
    subscription: subscription.id,
    discount: discount.body.id,
    link: link.body.id,
    benefit: benefit.body.id,
    endpoint: endpoint.body.id,
  });
});

const itemIds = (res: { body: any }, field: string): string[] => {
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data[field].items.map((i: { id: string }) => i.id);
};

const PARTS_OF_ONE = new Set([
  'Query.benefitFiles',
  'Query.customerPaymentMethods',
  'Query.customerPaymentMethodsByExternalId',
]);

describe('the graph schema', () => {
  it('gives every list field a filter and deprecates the separate arguments it replaced', async () => {
    const res = await gql(`{
      __schema { types { name fields { name args(includeDeprecated: true) { name isDeprecated deprecationReason } } } }
    }`);
    const lists: string[] = [];
    const missing: string[] = [];
    for (const type of res.body.data.__schema.types) {
      if (type.name.startsWith('__') || !type.fields) continue;
      for (const field of type.fields) {
        const names = field.args.map((a: { name: string }) => a.name);
        if (!names.includes('page')) continue;
        const others = field.args.filter(
          (a: { name: string }) => !['page', 'limit', 'sorting', 'filter'].includes(a.name),
        );
        // A list of one thing's parts (a benefit's files, a customer's payment methods, by its id) or with
        // nothing to filter takes none.
        if (!others.length || PARTS_OF_ONE.has(`${type.name}.${field.name}`)) continue;
        lists.push(`${type.name}.${field.name}`);
        if (!names.includes('filter')) missing.push(`${type.name}.${field.name}: no filter`);
        for (const arg of others)
          if (!arg.isDeprecated || arg.deprecationReason !== 'Use filter.')
            missing.push(`${type.name}.${field.name}(${arg.name}) not deprecated`);
      }
    }
    expect(missing).toEqual([]);
    expect(lists).toEqual(
      expect.arrayContaining([
        'Query.products',
        'Query.discounts',
        'Query.benefits',
        'Query.licenseKeys',
        'Query.files',
        'Query.checkoutLinks',
        'Query.customerPortalOrders',
        'Query.customerPortalSubscriptions',
        'Query.customerPortalBenefitGrants',
        'Query.webhookEndpoints',
        'Query.webhookDeliveries',
        'Query.organizations',
        'Organization.products',
      ]),
    );
  });
});

describe('filter on the lists', () => {
  it('products: the filter filters, and a filter field wins over its old argument', async () => {
    const archived = await gql('{ products(filter: { isArchived: true }) { items { id } } }');
    expect(itemIds(archived, 'products')).toEqual([ids.archived]);
    const wins = await gql('{ products(isArchived: false, filter: { isArchived: true }) { items { id } } }');
    expect(itemIds(wins, 'products')).toEqual([ids.archived]);
    const old = await gql('{ products(query: "yearly") { items { id } } }');
    expect(itemIds(old, 'products')).toEqual([ids.yearly]);
    const byQuery = await gql('query($f: ProductFilter) { products(filter: $f) { items { id } } }', {
      f: { query: 'monthly', isArchived: false },
    });
    expect(itemIds(byQuery, 'products')).toEqual([ids.monthly]);
  });

  it('Organization.products: the filter, within that organization', async () => {
    const res = await gql(
      `query($id: ID!) { organization(id: $id) { products(filter: { query: "plan", organizationId: ["${ids.benefit}"] }, sorting: ["name"]) { items { id } } } }`,
      { id: tenant.organizationId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organization.products.items.map((p: { id: string }) => p.id)).toEqual([
      ids.monthly,
      ids.yearly,
    ]);
  });

  it('discounts, checkout links, benefits, webhook endpoints', async () => {
    expect(itemIds(await gql('{ discounts(filter: { query: "spring" }) { items { id } } }'), 'discounts')).toEqual([
      ids.discount,
    ]);
    expect(
      itemIds(
        await gql(`{ checkoutLinks(filter: { productId: ["${ids.yearly}"] }) { items { id } } }`),
        'checkoutLinks',
      ),
    ).toEqual([ids.link]);
    expect(
      itemIds(await gql('{ benefits(filter: { type: ["custom"], query: "priority" }) { items { id } } }'), 'benefits'),
    ).toEqual([ids.benefit]);
    const endpoints = await gql(
      `{ webhookEndpoints(filter: { organizationId: ["${tenant.organizationId}"] }) { items { id } } }`,
    );
    expect(itemIds(endpoints, 'webhookEndpoints')).toEqual([ids.endpoint]);
    const deliveries = await gql(
      `{ webhookDeliveries(filter: { endpointId: ["${ids.endpoint}"], succeeded: true }) { items { id } pagination { totalCount } } }`,
    );
    expect(deliveries.body.data.webhookDeliveries.pagination.totalCount).toBe(0);
    const licenseKeys = await gql(`{ licenseKeys(filter: { benefitId: ["${ids.benefit}"] }) { items { id } } }`);
    expect(itemIds(licenseKeys, 'licenseKeys')).toEqual([]);
    const files = await gql(`{ files(filter: { organizationId: ["${tenant.organizationId}"] }) { items { id } } }`);
    expect(itemIds(files, 'files')).toEqual([]);
  });

  it("identity's organizations", async () => {
    const mine = await gql(
      `{ organizations(filter: { slug: "${tenant.slug}" }) { items { id } } }`,
      undefined,
      tenant.pat,
    );
    expect(itemIds(mine, 'organizations')).toEqual([tenant.organizationId]);
    const none = await gql(
      '{ organizations(filter: { slug: "nobody-here" }) { items { id } } }',
      undefined,
      tenant.pat,
    );
    expect(itemIds(none, 'organizations')).toEqual([]);
  });

  it("the portal's lists, as the customer", async () => {
    const active = await gql(
      '{ customerPortalSubscriptions(filter: { active: true }) { items { id } } }',
      undefined,
      portalToken,
    );
    expect(itemIds(active, 'customerPortalSubscriptions')).toEqual([ids.subscription]);
    const wins = await gql(
      '{ customerPortalSubscriptions(active: false, filter: { active: true }) { items { id } } }',
      undefined,
      portalToken,
    );
    expect(itemIds(wins, 'customerPortalSubscriptions')).toEqual([ids.subscription]);
    const orders = await gql(
      `{ customerPortalOrders(filter: { productId: ["${ids.yearly}"] }) { items { id } } }`,
      undefined,
      portalToken,
    );
    expect(itemIds(orders, 'customerPortalOrders')).toEqual([]);
    const grants = await gql(
      '{ customerPortalBenefitGrants(filter: { type: ["custom"] }) { items { id } } }',
      undefined,
      portalToken,
    );
    expect(itemIds(grants, 'customerPortalBenefitGrants')).toEqual([]);
  });

  it('refuses a filter field of the wrong type in validation (400), before anything runs', async () => {
    const res = await gql('{ products(filter: { isArchived: "yes" }) { items { id } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
