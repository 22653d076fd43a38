import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * A customer session over POST /graphql reads what the REST Customer Portal shows, nothing more:
 * Polar's CustomerSubscription (no customer, discount, metadata), CustomerSubscriptionProduct (no
 * metadata) and CustomerOrganization (no settings, feature flags, e-mail, …). Every other field answers
 * 403 NotPermitted, or 401 for billing's lists on Organization; reaching the organization by entity
 * reference (product.organization, subscription.organization) does not widen that. The merchant's
 * token reads the same objects in full.
 */
let stack: TestStack;
let env: RunningEnvironment;
let alice: Tenant;
let token: string;
let subscriptionId: string;

const asCustomer = (query: string, variables?: Record<string, unknown>) =>
  call(env.baseUrl, 'POST', '/graphql', { token, body: { query, variables } });

beforeAll(async () => {
  stack = await sharedTestStack();
  env = stack.production;
  alice = await createTenant(env);
  const fixtures = new BillingFixtures(env);
  const customer = await fixtures.customer(alice.organizationId);
  await fixtures.customer(alice.organizationId, { email: 'someone-else@example.com' });
  const plan = await fixtures.product(alice.organizationId, { name: 'Plan', amount: 0 });
  const discount = await fixtures.discount(alice.organizationId, 'Friends');
  subscriptionId = (
    await fixtures.subscription({
      organizationId: alice.organizationId,
      customerId: customer.id,
      productId: plan.product.id,
      priceIds: [plan.price.id],
      discountId: discount.id,
      metadata: { internal_note: 'merchant only' },
    })
  ).id;
  const session = await call(env.baseUrl, 'POST', '/v1/customer-sessions/', {
    token: alice.oat,
    body: { customer_id: customer.id },
  });
  expect(session.status).toBe(201);
  token = session.body.token;
});

const SUBSCRIPTION = 'query($id: ID!) { customerPortalSubscription(id: $id) { id %s } }';
const select = (fields: string) => SUBSCRIPTION.replace('%s', fields);

/**
 * The field was refused: an error with that code (the gateway does not pass subgraph error paths on;
 * the portal's own selection answers without any error, so the error is the added field's), and the
 * merchant's values appear nowhere in the data.
 */
function expectRefused(body: any, code = 'NotPermitted', status = 403): void {
  expect(body.errors).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ extensions: expect.objectContaining({ code, http: { status } }) }),
    ]),
  );
  const data = JSON.stringify(body.data ?? null);
  for (const secret of ['merchant only', 'someone-else@example.com', 'Friends', alice.email])
    expect(data).not.toContain(secret);
}

describe('a customer session over POST /graphql', () => {
  it("reads the portal's own selection without an error", async () => {
    const res = await asCustomer(
      select(`status customerId productId discountId meters
        product { id name isRecurring prices { id amountType } organization {
          id createdAt modifiedAt name slug avatarUrl prorationBehavior allowCustomerUpdates
          customerPortalSettings { usage { show } subscription { updateSeats updatePlan } customer { allowEmailChange } }
        } }
        organization { id name slug }`),
      { id: subscriptionId },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customerPortalSubscription.product.organization).toMatchObject({
      id: alice.organizationId,
      slug: alice.slug,
    });
  });

  it.each([
    ['email', 'email'],
    ['website', 'website'],
    ['status', 'status'],
    ['socials', 'socials { url }'],
    ['featureSettings', 'featureSettings { issueFundingEnabled }'],
    ['subscriptionSettings', 'subscriptionSettings { prorationBehavior }'],
    ['notificationSettings', 'notificationSettings { newOrder }'],
    ['customerEmailSettings', 'customerEmailSettings { orderConfirmation }'],
    ['disputeSettings', 'disputeSettings { autoAcceptBelowAmount }'],
    ['embedHosts', 'embedHosts'],
    ['capabilities', 'capabilities { payouts }'],
    ['defaultTaxBehavior', 'defaultTaxBehavior'],
  ])('is refused Organization.%s through product.organization', async (_field, selection) => {
    const res = await asCustomer(select(`product { organization { id ${selection} } }`), { id: subscriptionId });
    expectRefused(res.body);
  });

  it('is refused the settings through subscription.organization too (another entity reference)', async () => {
    const res = await asCustomer(select('organization { id email subscriptionSettings { prorationBehavior } }'), {
      id: subscriptionId,
    });
    expectRefused(res.body);
  });

  it("is refused the organization's customers, products and subscriptions (401)", async () => {
    for (const [, selection] of [
      ['customers', 'customers { items { email } }'],
      ['products', 'products { items { id metadata } }'],
      ['subscriptions', 'subscriptions { items { id metadata } }'],
    ]) {
      const res = await asCustomer(select(`product { organization { id ${selection} } }`), { id: subscriptionId });
      expectRefused(res.body, 'Unauthorized', 401);
      expect(JSON.stringify(res.body.data)).not.toContain('someone-else@example.com');
    }
  });

  it.each([
    ['metadata', 'metadata'],
    ['customFieldData', 'customFieldData'],
    ['customer', 'customer { id email metadata externalId }'],
    ['discount', 'discount { id name metadata }'],
  ])('is refused BillingSubscription.%s', async (_field, selection) => {
    const res = await asCustomer(select(selection), { id: subscriptionId });
    expectRefused(res.body);
  });

  it("is refused the product's metadata and custom fields, in the list too", async () => {
    const one = await asCustomer(select('product { id metadata }'), { id: subscriptionId });
    expectRefused(one.body);
    const list = await asCustomer(
      '{ customerPortalSubscriptions { items { id metadata product { attachedCustomFields } } } }',
    );
    expectRefused(list.body);
  });

  it('leaves the merchant reading the same subscription in full', async () => {
    const res = await call(env.baseUrl, 'POST', '/graphql', {
      token: alice.oat,
      body: {
        query: `query($id: ID!) { subscription(id: $id) {
          metadata customer { email } discount { name } product { metadata organization { email subscriptionSettings { prorationBehavior } } }
        } }`,
        variables: { id: subscriptionId },
      },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.subscription).toMatchObject({
      metadata: { internal_note: 'merchant only' },
      discount: { name: 'Friends' },
      product: { organization: { subscriptionSettings: { prorationBehavior: expect.any(String) } } },
    });
  });
});
