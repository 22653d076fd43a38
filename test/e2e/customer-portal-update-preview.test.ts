import {
  advance,
  api,
  asPreview,
  customerWithCard,
  ONE_DAY,
  ordersOf,
  plan,
  type Plan,
  subscribe,
  tenant,
  usePlanChangesStack,
} from './support/plan-changes.js';

/**
 * `POST /v1/customer-portal/subscriptions/{id}/update-preview`: the portal PATCH's body, answered as the
 * Core API's update preview answers it, with the organization's direction-aware proration choice and
 * its portal settings; nothing changes. One day into a 30-day period: $5 → $20 is -483 + 1933 = 1450.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;
let team: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
  team = await plan('Team', 1000, { perSeat: true });
  await setOrganization({
    subscription_settings: {
      allow_multiple_subscriptions: false,
      proration_behavior: 'prorate',
      proration_behavior_upgrade: 'invoice',
      proration_behavior_downgrade: 'next_period',
      benefit_revocation_grace_period: 0,
      prevent_trial_abuse: false,
      allow_customer_updates: true,
    },
  });
});

async function setOrganization(body: Record<string, unknown>) {
  const res = await api('PATCH', `/v1/organizations/${tenant.organizationId}`, body, tenant.pat);
  expect(res.status).toBe(200);
}

const setPortal = (subscription: Record<string, boolean>) =>
  setOrganization({
    customer_portal_settings: {
      usage: { show: true },
      subscription: { update_seats: true, update_plan: true, ...subscription },
    },
  });

async function sessionOf(customerId: string): Promise<string> {
  const res = await api('POST', '/v1/customer-sessions/', { customer_id: customerId });
  expect(res.status).toBe(201);
  return res.body.token;
}

const portalPreview = (token: string, id: string, body: unknown) =>
  api('POST', `/v1/customer-portal/subscriptions/${id}/update-preview`, body, token);
const portalPatch = (token: string, id: string, body: unknown) =>
  api('PATCH', `/v1/customer-portal/subscriptions/${id}`, body, token);
const corePreview = (id: string, body: unknown) => api('POST', `/v1/subscriptions/${id}/update-preview`, body);
const withoutAppliesAt = ({ applies_at: _at, ...rest }: Record<string, unknown>) => rest;

describe('the preview is what the Core API previews and what the PATCH then bills', () => {
  it("an upgrade (the organization's upgrade choice: invoice) equals, to the cent, the order the PATCH creates", async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const token = await sessionOf(customer.id);

    const quoted = await portalPreview(token, s.id, { product_id: premium.product.id });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toEqual({
      applies_at: expect.any(String),
      currency: 'usd',
      items: [
        { label: 'Unused time on Basic', amount: -483, proration: true },
        { label: 'Remaining time on Premium', amount: 1933, proration: true },
      ],
      subtotal_amount: 1450,
      discount_amount: 0,
      net_amount: 1450,
      tax_amount: 0,
      total_amount: 1450,
    });
    // The Core API's preview of the same change with the same behaviour answers the same (applied now:
    // the clock has moved on by a few milliseconds).
    const core = await corePreview(s.id, { product_id: premium.product.id, proration_behavior: 'invoice' });
    expect(withoutAppliesAt(core.body)).toEqual(withoutAppliesAt(quoted.body));
    // Nothing changed: the product, no order.
    expect((await api('GET', `/v1/customer-portal/subscriptions/${s.id}`, undefined, token)).body.product_id).toBe(
      basic.product.id,
    );
    expect(await ordersOf(s.id)).toEqual([]);

    const changed = await portalPatch(token, s.id, { product_id: premium.product.id });
    expect(changed.status).toBe(200);
    expect(changed.body.product_id).toBe(premium.product.id);
    const [order] = await ordersOf(s.id);
    expect(order).toMatchObject({ billing_reason: 'subscription_update', status: 'paid', total_amount: 1450 });
    expect(asPreview(order)).toEqual(withoutAppliesAt(quoted.body));
  });

  it("a downgrade (the organization's downgrade choice: next_period) previews the renewal at the new plan", async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, premium);
    await advance(ONE_DAY);
    const token = await sessionOf(customer.id);

    const quoted = await portalPreview(token, s.id, { product_id: basic.product.id });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toMatchObject({
      items: [{ label: 'Basic', amount: 500, proration: false }],
      total_amount: 500,
    });
    expect(new Date(quoted.body.applies_at)).toEqual(s.currentPeriodEnd);
    const core = await corePreview(s.id, { product_id: basic.product.id, proration_behavior: 'next_period' });
    expect(core.body).toEqual(quoted.body);

    const changed = await portalPatch(token, s.id, { product_id: basic.product.id });
    expect(changed.body.pending_update).toMatchObject({ product_id: basic.product.id });
    expect(await ordersOf(s.id)).toEqual([]);
  });

  it('a seat change: 2 → 5 seats at $10 after one day is one line of 2900, the order the PATCH creates', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, team, { seats: 2 });
    await advance(ONE_DAY);
    const token = await sessionOf(customer.id);

    const quoted = await portalPreview(token, s.id, { seats: 5 });
    expect(quoted.status).toBe(200);
    expect(quoted.body.items).toEqual([{ label: 'Team (2 → 5 seats)', amount: 2900, proration: true }]);
    expect((await portalPatch(token, s.id, { seats: 5 })).body.seats).toBe(5);
    const [order] = await ordersOf(s.id);
    expect(asPreview(order)).toEqual(withoutAppliesAt(quoted.body));
  });

  it('a cancel at period end bills nothing: an empty preview, and the subscription is not canceled', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    const token = await sessionOf(customer.id);
    const quoted = await portalPreview(token, s.id, { cancel_at_period_end: true });
    expect(quoted.status).toBe(200);
    expect(quoted.body).toMatchObject({ items: [], total_amount: 0, currency: 'usd' });
    const after = await api('GET', `/v1/customer-portal/subscriptions/${s.id}`, undefined, token);
    expect(after.body.cancel_at_period_end).toBe(false);
  });
});

describe('refused exactly as the PATCH refuses it', () => {
  afterEach(async () => {
    await setPortal({});
  });

  it("the organization's portal settings: plan and seat changes turned off are 403 with the PATCH's body", async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    const seated = await subscribe(customer, team, { seats: 2 });
    const token = await sessionOf(customer.id);
    await setPortal({ update_plan: false, update_seats: false });

    const plan = await portalPreview(token, s.id, { product_id: premium.product.id });
    const planPatch = await portalPatch(token, s.id, { product_id: premium.product.id });
    expect(plan.status).toBe(403);
    expect(planPatch.status).toBe(403);
    expect(plan.body).toEqual(planPatch.body);
    expect(plan.body.error).toBe('UpdateSubscriptionPlanNotAllowed');

    const seats = await portalPreview(token, seated.id, { seats: 3 });
    const seatsPatch = await portalPatch(token, seated.id, { seats: 3 });
    expect(seats.status).toBe(403);
    expect(seats.body).toEqual(seatsPatch.body);
    expect(seats.body.error).toBe('UpdateSubscriptionSeatsNotAllowed');
  });

  it("another customer's subscription is 404, a canceled one 403, a Core API token 401, a named behaviour 422", async () => {
    const owner = await customerWithCard();
    const stranger = await customerWithCard();
    const s = await subscribe(owner, basic);
    const strangerToken = await sessionOf(stranger.id);
    const ownerToken = await sessionOf(owner.id);

    const foreign = await portalPreview(strangerToken, s.id, { product_id: premium.product.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual((await portalPatch(strangerToken, s.id, { product_id: premium.product.id })).body);

    expect((await api('POST', `/v1/customer-portal/subscriptions/${s.id}/update-preview`, {})).status).toBe(401);

    const named = await portalPreview(ownerToken, s.id, {
      product_id: premium.product.id,
      proration_behavior: 'invoice',
    });
    expect(named.status).toBe(422);
    expect(named.body.detail[0]).toMatchObject({ loc: ['body', 'proration_behavior'], type: 'extra_forbidden' });

    expect((await portalPatch(ownerToken, s.id, { cancel_at_period_end: true })).status).toBe(200);
    const canceled = await portalPreview(ownerToken, s.id, { product_id: premium.product.id });
    expect(canceled.status).toBe(403);
    expect(canceled.body.error).toBe('AlreadyCanceledSubscription');
  });
});
