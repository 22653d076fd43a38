import { randomUUID } from 'node:crypto';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * What customers may do in the portal is the organization's choice (`customer_portal_settings`),
 * enforced by the Customer Portal API itself. `subscription.cancel` is beyond Polar (default true).
 */
let stack: TestStack;
let base: string;
let alice: Tenant;
let fixtures: BillingFixtures;
let customerId: string;
let token: string;
let plan: Awaited<ReturnType<BillingFixtures['product']>>;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  fixtures = new BillingFixtures(stack.production);
  customerId = (await fixtures.customer(alice.organizationId)).id;
  plan = await fixtures.product(alice.organizationId, { name: 'Settings plan', amount: 0 });
  token = (await call(base, 'POST', '/v1/customer-sessions/', { token: alice.oat, body: { customer_id: customerId } }))
    .body.token;
});

const subscription = (cancelAtPeriodEnd = false) =>
  fixtures.subscription({
    organizationId: alice.organizationId,
    customerId,
    productId: plan.product.id,
    priceIds: [plan.price.id],
    cancelAtPeriodEnd,
  });

async function setPortal(subscriptionSettings: Record<string, boolean>) {
  const res = await call(base, 'PATCH', `/v1/organizations/${alice.organizationId}`, {
    token: alice.oat,
    body: {
      customer_portal_settings: {
        usage: { show: true },
        subscription: { update_seats: true, update_plan: true, ...subscriptionSettings },
      },
    },
  });
  expect(res.status).toBe(200);
  return res.body.customer_portal_settings;
}

const NOT_ALLOWED = { error: 'CancelSubscriptionNotAllowed', detail: 'Canceling the subscription is not allowed.' };

describe('customer_portal_settings.subscription.cancel', () => {
  it('defaults to true and is stored with the other portal settings', async () => {
    const organization = (await call(base, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.oat }))
      .body;
    expect(organization.customer_portal_settings.subscription).toEqual({
      update_seats: true,
      update_plan: true,
      pause: false,
      cancel: true,
    });
    expect(await setPortal({ cancel: false })).toMatchObject({ subscription: { cancel: false } });
  });

  it('false: the portal API refuses PATCH cancel_at_period_end=true and DELETE with 403, changing nothing', async () => {
    await setPortal({ cancel: false });
    const sub = await subscription();
    const patch = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${sub.id}`, {
      token,
      body: { cancel_at_period_end: true },
    });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual(NOT_ALLOWED);
    const del = await call(base, 'DELETE', `/v1/customer-portal/subscriptions/${sub.id}`, { token });
    expect(del.status).toBe(403);
    expect(del.body).toEqual(NOT_ALLOWED);
    const after = await call(base, 'GET', `/v1/customer-portal/subscriptions/${sub.id}`, { token });
    expect(after.body).toMatchObject({ cancel_at_period_end: false, canceled_at: null });
    // The merchant still can (the setting is about customers).
    const core = await call(base, 'PATCH', `/v1/subscriptions/${sub.id}`, {
      token: alice.oat,
      body: { cancel_at_period_end: true },
    });
    expect(core.status).toBe(200);
  });

  it('false: an unknown subscription is still 404 first; uncancel stays allowed', async () => {
    await setPortal({ cancel: false });
    const unknown = await call(base, 'DELETE', `/v1/customer-portal/subscriptions/${randomUUID()}`, { token });
    expect(unknown.status).toBe(404);
    const sub = await subscription(true);
    const uncancel = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${sub.id}`, {
      token,
      body: { cancel_at_period_end: false },
    });
    expect(uncancel.status).toBe(200);
    expect(uncancel.body.cancel_at_period_end).toBe(false);
  });

  it('true again: the customer cancels at period end', async () => {
    await setPortal({ cancel: true });
    const sub = await subscription();
    const res = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${sub.id}`, {
      token,
      body: { cancel_at_period_end: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.cancel_at_period_end).toBe(true);
  });
});

describe('customer_portal:organizations:get', () => {
  it("answers the seller's public profile, portal settings and public live products, without a credential", async () => {
    const hidden = await call(base, 'POST', '/v1/products/', {
      token: alice.oat,
      body: {
        name: 'Private plan',
        visibility: 'private',
        recurring_interval: 'month',
        prices: [{ amount_type: 'free' }],
      },
    });
    expect(hidden.status).toBe(201);
    const res = await call(base, 'GET', `/v1/customer-portal/organizations/${alice.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.organization).toMatchObject({
      id: alice.organizationId,
      slug: alice.slug,
      customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: true } },
    });
    const names = res.body.products.map((p: any) => p.name);
    expect(names).toContain('Settings plan');
    expect(names).not.toContain('Private plan');
    const product = res.body.products.find((p: any) => p.name === 'Settings plan');
    expect(product).not.toHaveProperty('metadata');
    expect(product.prices[0]).toMatchObject({ amount_type: 'fixed', price_amount: 0 });
  });

  it('is 404 for an unknown slug', async () => {
    const res = await call(base, 'GET', '/v1/customer-portal/organizations/no-such-seller');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ResourceNotFound');
  });
});

describe('customer_portal_settings.subscription.update_plan / update_seats', () => {
  it("refuse the portal's plan and seat changes with Polar's 403s, changing nothing", async () => {
    await setPortal({ update_plan: false, update_seats: false });
    const sub = await subscription();
    const other = await fixtures.product(alice.organizationId, { name: 'Other plan', amount: 0 });
    const plan = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${sub.id}`, {
      token,
      body: { product_id: other.product.id },
    });
    expect(plan.status).toBe(403);
    expect(plan.body).toEqual({
      error: 'UpdateSubscriptionPlanNotAllowed',
      detail: 'Updating subscription plan is not allowed.',
    });
    const seats = await call(base, 'PATCH', `/v1/customer-portal/subscriptions/${sub.id}`, {
      token,
      body: { seats: 3 },
    });
    expect(seats.status).toBe(403);
    expect(seats.body).toEqual({
      error: 'UpdateSubscriptionSeatsNotAllowed',
      detail: 'Updating subscription seats is not allowed.',
    });
    const after = await call(base, 'GET', `/v1/customer-portal/subscriptions/${sub.id}`, { token });
    expect(after.body.product_id).toBe(sub.productId);
    await setPortal({ update_plan: true, update_seats: true });
  });
});
