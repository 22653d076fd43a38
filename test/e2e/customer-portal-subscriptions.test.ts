import { SubscriptionStatus } from '../../subgraphs/billing/shared/enums.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type RunningEnvironment, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** The Customer Portal's subscriptions with a customer session token (docs/polar/endpoints.md, docs/polar/subscription-lifecycle.md). */
let stack: TestStack;
let env: RunningEnvironment;
let base: string;
let alice: Tenant;
let fixtures: BillingFixtures;
let customerId: string;
let otherCustomerId: string;
let token: string;
let otherToken: string;
let plan: Awaited<ReturnType<BillingFixtures['product']>>;

beforeAll(async () => {
  stack = await sharedTestStack();
  env = stack.production;
  base = env.baseUrl;
  alice = await createTenant(env);
  fixtures = new BillingFixtures(env);
  customerId = (await fixtures.customer(alice.organizationId)).id;
  otherCustomerId = (await fixtures.customer(alice.organizationId)).id;
  plan = await fixtures.product(alice.organizationId, { name: 'Portal plan', amount: 0 });
  const session = await call(base, 'POST', '/v1/customer-sessions/', {
    token: alice.oat,
    body: { customer_id: customerId },
  });
  expect(session.status).toBe(201);
  token = session.body.token;
  otherToken = (
    await call(base, 'POST', '/v1/customer-sessions/', { token: alice.oat, body: { customer_id: otherCustomerId } })
  ).body.token;
});

const subscription = (owner = customerId, overrides: Partial<Parameters<BillingFixtures['subscription']>[0]> = {}) =>
  fixtures.subscription({
    organizationId: alice.organizationId,
    customerId: owner,
    productId: plan.product.id,
    priceIds: [plan.price.id],
    ...overrides,
  });

const ALREADY_CANCELED = {
  error: 'AlreadyCanceledSubscription',
  detail: 'This subscription is already canceled or will be at the end of the period.',
};

describe('customer portal subscriptions', () => {
  it("lists only the customer's own subscriptions, in the CustomerSubscription shape", async () => {
    const mine = await subscription(customerId, { startedAt: new Date(Date.now() - 1000) });
    const mine2 = await subscription(customerId, {
      status: SubscriptionStatus.CANCELED,
      endedAt: new Date(),
      canceledAt: new Date(),
      endsAt: new Date(),
    });
    await subscription(otherCustomerId);
    const res = await call(base, 'GET', '/v1/customer-portal/subscriptions/', { token });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((s: any) => s.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, mine2.id]));
    expect(res.body.items.every((s: any) => s.customer_id === customerId)).toBe(true);
    const item = res.body.items.find((s: any) => s.id === mine.id);
    expect(item).toMatchObject({
      product_id: plan.product.id,
      product: { id: plan.product.id, name: 'Portal plan' },
      user_id: customerId,
      price: { id: plan.price.id },
    });
    expect(item).not.toHaveProperty('customer');
    expect(item).not.toHaveProperty('metadata');
    const active = await call(base, 'GET', '/v1/customer-portal/subscriptions/?active=true', { token });
    expect(active.body.items.map((s: any) => s.id)).not.toContain(mine2.id);
  });

  it("another customer's subscription is 404 (get, patch, delete)", async () => {
    const theirs = await subscription(otherCustomerId);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { cancel_at_period_end: true }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(base, method, `/v1/customer-portal/subscriptions/${theirs.id}`, { token, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    }
    const got = await call(base, 'GET', `/v1/customer-portal/subscriptions/${theirs.id}`, { token: otherToken });
    expect(got.status).toBe(200);
    expect(got.body.cancel_at_period_end).toBe(false);
  });

  it('PATCH cancels at period end with reason and comment, then uncancels', async () => {
    const s = await subscription();
    const canceled = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${s.id}`, {
      token,
      body: { cancel_at_period_end: true, cancellation_reason: 'unused', cancellation_comment: 'not using it' },
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      customer_cancellation_reason: 'unused',
      customer_cancellation_comment: 'not using it',
      ends_at: new Date(s.currentPeriodEnd).toISOString(),
    });
    const again = await call(base, 'DELETE', `/v1/customer-portal/subscriptions/${s.id}`, { token });
    expect(again.status).toBe(403);
    expect(again.body).toEqual(ALREADY_CANCELED);
    const uncanceled = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${s.id}`, {
      token,
      body: { cancel_at_period_end: false },
    });
    expect(uncanceled.status).toBe(200);
    expect(uncanceled.body).toMatchObject({ cancel_at_period_end: false, canceled_at: null, ends_at: null });
  });

  it('DELETE cancels at the end of the period (not now)', async () => {
    const s = await subscription();
    const res = await call(base, 'DELETE', `/v1/customer-portal/subscriptions/${s.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'active', cancel_at_period_end: true, ended_at: null });
  });

  it('a canceled subscription cannot be canceled or uncanceled (403)', async () => {
    const s = await subscription(customerId, {
      status: SubscriptionStatus.CANCELED,
      endedAt: new Date(),
      canceledAt: new Date(),
      endsAt: new Date(),
    });
    for (const body of [{ cancel_at_period_end: true }, { cancel_at_period_end: false }]) {
      const res = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${s.id}`, { token, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ALREADY_CANCELED);
    }
  });

  it('refuses other alternatives and unknown keys (422), and Core API tokens (401)', async () => {
    const s = await subscription();
    const extra = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${s.id}`, {
      token,
      body: { revoke: true },
    });
    expect(extra.status).toBe(422);
    expect(extra.body.detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'revoke'] });
    const core = await call(base, 'GET', '/v1/customer-portal/subscriptions/', { token: alice.oat });
    expect(core.status).toBe(401);
    const coreApiWithCustomerToken = await call(base, 'DELETE', `/v1/subscriptions/${s.id}`, { token });
    expect(coreApiWithCustomerToken.status).toBe(401);
  });
});
