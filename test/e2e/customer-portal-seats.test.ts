import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The portal's seats over real HTTP (docs/customer-seats.md#the-portal): the buyer's customer session
 * lists, assigns, resends and revokes the seats of its own subscription; another customer gets 404; the
 * holder lists the subscription it holds a claimed seat of; a merchant token is not a portal caller.
 */
let stack: TestStack;
let base: string;
let shop: Tenant;
let fixtures: BillingFixtures;

const session = async (customerId: string) => {
  const res = await call(base, 'POST', '/v1/customer-sessions/', {
    token: shop.oat,
    body: { customer_id: customerId },
  });
  expect(res.status).toBe(201);
  return res.body.token as string;
};

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
  fixtures = new BillingFixtures(stack.production);
  const on = await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
    token: shop.oat,
    body: { feature_settings: { seat_based_pricing_enabled: true } },
  });
  expect(on.status).toBe(200);
});

describe('/v1/customer-portal/seats', () => {
  it('lets the buyer manage its seats and the holder list what it claimed', async () => {
    const buyer = await fixtures.customer(shop.organizationId);
    const stranger = await fixtures.customer(shop.organizationId);
    const plan = await fixtures.product(shop.organizationId, { name: 'Team plan', amount: 0 });
    const sub = await fixtures.subscription({
      organizationId: shop.organizationId,
      customerId: buyer.id,
      productId: plan.product.id,
      priceIds: [plan.price.id],
      seats: 2,
    });
    const buyerToken = await session(buyer.id);
    const strangerToken = await session(stranger.id);

    const empty = await call(base, 'GET', `/v1/customer-portal/seats?subscription_id=${sub.id}`, { token: buyerToken });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ seats: [], available_seats: 2, total_seats: 2 });
    const neither = await call(base, 'GET', '/v1/customer-portal/seats', { token: buyerToken });
    expect(neither.status).toBe(400);

    const email = `holder-${Date.now()}@example.com`;
    const assigned = await call(base, 'POST', '/v1/customer-portal/seats', {
      token: buyerToken,
      body: { subscription_id: sub.id, email },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ status: 'pending', customer_email: email, subscription_id: sub.id });

    // Another customer of the same seller sees neither the subscription nor the seat.
    const foreign = await call(base, 'GET', `/v1/customer-portal/seats?subscription_id=${sub.id}`, {
      token: strangerToken,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ResourceNotFound', detail: 'Subscription not found' });
    const foreignRevoke = await call(base, 'DELETE', `/v1/customer-portal/seats/${assigned.body.id}`, {
      token: strangerToken,
    });
    expect(foreignRevoke.status).toBe(404);
    // A merchant token is not a portal caller.
    expect((await call(base, 'GET', '/v1/customer-portal/seats/subscriptions', { token: shop.oat })).status).toBe(401);

    const resent = await call(base, 'POST', `/v1/customer-portal/seats/${assigned.body.id}/resend`, {
      token: buyerToken,
    });
    expect(resent.status).toBe(200);
    const [row] = await stack.production.environment.billing.orm.em
      .fork()
      .execute<{ text_body: string }[]>(
        `select text_body from billing.outgoing_emails where kind = 'customer_seat_invitation' and to_address = ? order by created_at desc limit 1`,
        [email],
      );
    const token = /Your invitation token: (\S+)/.exec(row?.text_body ?? '')?.[1];
    const claimed = await call(base, 'POST', '/v1/customer-seats/claim', { body: { invitation_token: token } });
    expect(claimed.status).toBe(200);

    const holderToken = claimed.body.customer_session_token as string;
    const held = await call(base, 'GET', '/v1/customer-portal/seats/subscriptions', { token: holderToken });
    expect(held.status).toBe(200);
    expect(held.body.pagination).toEqual({ total_count: 1, max_page: 1 });
    expect(held.body.items).toHaveLength(1);
    expect(held.body.items[0]).toMatchObject({ id: sub.id, customer_id: buyer.id, seats: 2 });
    expect(held.body.items[0].product).toMatchObject({ name: 'Team plan' });
    expect(held.body.items[0]).not.toHaveProperty('metadata');
    const buyerHeld = await call(base, 'GET', '/v1/customer-portal/seats/subscriptions', { token: buyerToken });
    expect(buyerHeld.body.items).toEqual([]);

    const revoked = await call(base, 'DELETE', `/v1/customer-portal/seats/${assigned.body.id}`, { token: buyerToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', customer_id: null });
    const after = await call(base, 'GET', '/v1/customer-portal/seats/subscriptions', { token: holderToken });
    expect(after.body.items).toEqual([]);
  });
});
