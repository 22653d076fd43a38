import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * A customer session may read its own organization only as the Customer Portal embeds it
 * (`product.organization`, by entity reference): identity's root queries and mutations still refuse
 * the `customer` subject with 401, over REST and over POST /graphql.
 */
let stack: TestStack;
let env: RunningEnvironment;
let alice: Tenant;
let bob: Tenant;
let token: string;
let subscriptionId: string;

const gql = (query: string, variables?: Record<string, unknown>) =>
  call(env.baseUrl, 'POST', '/graphql', { token, body: { query, variables } });

beforeAll(async () => {
  stack = await sharedTestStack();
  env = stack.production;
  alice = await createTenant(env);
  bob = await createTenant(env);
  const fixtures = new BillingFixtures(env);
  const customerId = (await fixtures.customer(alice.organizationId)).id;
  const plan = await fixtures.product(alice.organizationId, { name: 'Plan', amount: 0 });
  subscriptionId = (
    await fixtures.subscription({
      organizationId: alice.organizationId,
      customerId,
      productId: plan.product.id,
      priceIds: [plan.price.id],
    })
  ).id;
  const session = await call(env.baseUrl, 'POST', '/v1/customer-sessions/', {
    token: alice.oat,
    body: { customer_id: customerId },
  });
  expect(session.status).toBe(201);
  token = session.body.token;
});

describe('a customer session and organizations', () => {
  it('embeds its own organization in the portal subscription (CustomerOrganization)', async () => {
    const res = await call(env.baseUrl, 'GET', `/v1/customer-portal/subscriptions/${subscriptionId}`, { token });
    expect(res.status).toBe(200);
    const organization = res.body.product.organization;
    expect(organization).toMatchObject({
      id: alice.organizationId,
      name: expect.any(String),
      slug: expect.any(String),
      allow_customer_updates: expect.any(Boolean),
      proration_behavior: expect.any(String),
      customer_portal_settings: {
        usage: { show: expect.any(Boolean) },
        subscription: { update_seats: expect.any(Boolean), update_plan: expect.any(Boolean) },
        customer: { allow_email_change: expect.any(Boolean) },
      },
    });
    expect(Object.keys(organization).sort()).toEqual([
      'allow_customer_updates',
      'avatar_url',
      'created_at',
      'customer_portal_settings',
      'id',
      'modified_at',
      'name',
      'proration_behavior',
      'slug',
    ]);
  });

  it('is 401 on the Core API organization routes', async () => {
    for (const path of ['/v1/organizations/', `/v1/organizations/${alice.organizationId}`]) {
      const res = await call(env.baseUrl, 'GET', path, { token });
      expect(res.status).toBe(401);
    }
    const update = await call(env.baseUrl, 'PATCH', `/v1/organizations/${alice.organizationId}`, {
      token,
      body: { name: 'Taken over' },
    });
    expect(update.status).toBe(401);
  });

  it('is Unauthorized (401) on the organization root fields over POST /graphql', async () => {
    const list = await gql('{ organizations { items { id name } } }');
    expect(list.body.data).toBeNull();
    expect(list.body.errors[0].extensions).toMatchObject({ code: 'Unauthorized', http: { status: 401 } });
    for (const id of [alice.organizationId, bob.organizationId]) {
      const one = await gql('query($id: ID!) { organization(id: $id) { id name } }', { id });
      expect(one.body.data).toBeNull();
      expect(one.body.errors[0].extensions).toMatchObject({ code: 'Unauthorized', http: { status: 401 } });
    }
  });
});
