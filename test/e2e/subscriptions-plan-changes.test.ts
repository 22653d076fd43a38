import {
  advance,
  api,
  asPreview,
  balanceOf,
  customerWithCard,
  discount,
  ONE_DAY,
  ordersOf,
  paymentsOf,
  plan,
  type Plan,
  subscribe,
  tenant,
  usePlanChangesStack,
} from './support/plan-changes.js';

/**
 * Plan changes as billing rules (`PATCH /v1/subscriptions/{id}` and its preview), each with exact
 * cents, one day into a 30-day period by the sandbox clock. Polar's documented case: $5 → $20 after
 * one day is a credit of 483 (`proration: true`), a debit of 1933, 1450 net.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
});

const patch = (id: string, body: unknown) => api('PATCH', `/v1/subscriptions/${id}`, body);
const preview = (id: string, body: unknown) => api('POST', `/v1/subscriptions/${id}/update-preview`, body);
const get = (id: string) => api('GET', `/v1/subscriptions/${id}`);

const POLAR_CASE_ITEMS = [
  { label: 'Unused time on Basic', amount: -483, proration: true },
  { label: 'Remaining time on Premium', amount: 1933, proration: true },
];

describe('invoice: the change is billed now', () => {
  it("Polar's case: $5 → $20 after one day of a 30-day month is -483 + 1933 = 1450, charged to the saved card", async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const body = { product_id: premium.product.id, proration_behavior: 'invoice' };

    const quoted = await preview(s.id, body);
    expect(quoted.status).toBe(200);
    expect(quoted.body).toEqual({
      applies_at: expect.any(String),
      currency: 'usd',
      items: POLAR_CASE_ITEMS,
      subtotal_amount: 1450,
      discount_amount: 0,
      net_amount: 1450,
      tax_amount: 0,
      total_amount: 1450,
    });
    // The preview changed nothing.
    expect((await get(s.id)).body.product_id).toBe(basic.product.id);
    expect(await ordersOf(s.id)).toEqual([]);

    const res = await patch(s.id, body);
    expect(res.status).toBe(200);
    expect(res.body.product_id).toBe(premium.product.id);
    expect(res.body.amount).toBe(2000);
    const [order] = await ordersOf(s.id);
    expect(order).toMatchObject({
      billing_reason: 'subscription_update',
      status: 'paid',
      paid: true,
      subtotal_amount: 1450,
      total_amount: 1450,
      applied_balance_amount: 0,
      due_amount: 1450,
    });
    // The preview is the order, to the cent.
    const { applies_at: _at, ...previewed } = quoted.body;
    expect(asPreview(order)).toEqual(previewed);
    expect(await paymentsOf(customer.id)).toEqual([
      { status: 'succeeded', amount: '1450', order_id: order.id, currency: 'usd' },
    ]);
  });

  it("a subscription's discount comes off both sides: 10 % off makes Polar's case -435 + 1740 = 1305", async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic, { discountId: (await discount(1000)).id });
    await advance(ONE_DAY);
    const res = await patch(s.id, { product_id: premium.product.id, proration_behavior: 'invoice' });
    expect(res.status).toBe(200);
    const [order] = await ordersOf(s.id);
    expect(order.items.map((i: any) => i.amount)).toEqual([-435, 1740]);
    expect(order).toMatchObject({ discount_amount: 0, total_amount: 1305 });
  });

  it('a declined card answers 402 PaymentFailed and leaves everything as it was: no order, no payment, no event', async () => {
    const customer = await customerWithCard('pm_card_chargeCustomerFail');
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const before = (await get(s.id)).body;
    const res = await patch(s.id, { product_id: premium.product.id, proration_behavior: 'invoice' });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: 'PaymentFailed', detail: 'Payment failed with reason: card_error.' });
    expect((await get(s.id)).body).toEqual(before);
    expect(await ordersOf(s.id)).toEqual([]);
    expect(await paymentsOf(customer.id)).toEqual([]);
    expect(await balanceOf(customer.id)).toBe(0);
  });

  it('a credit larger than the charge becomes customer balance, which the next order uses first', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, premium);
    await advance(ONE_DAY);
    const down = await patch(s.id, { product_id: basic.product.id, proration_behavior: 'invoice' });
    expect(down.status).toBe(200);
    const [credit] = await ordersOf(s.id);
    expect(credit.items.map((i: any) => i.amount)).toEqual([-1933, 483]);
    expect(credit).toMatchObject({ total_amount: -1450, due_amount: 0, status: 'paid' });
    expect(await balanceOf(customer.id)).toBe(1450);
    expect(await paymentsOf(customer.id)).toEqual([]);

    // Back up the same day: 1450 owed to the customer pays for all of it; nothing is charged.
    const up = await patch(s.id, { product_id: premium.product.id, proration_behavior: 'invoice' });
    expect(up.status).toBe(200);
    const [, again] = await ordersOf(s.id);
    expect(again).toMatchObject({ total_amount: 1450, applied_balance_amount: -1450, due_amount: 0, status: 'paid' });
    expect(await balanceOf(customer.id)).toBe(0);
    expect(await paymentsOf(customer.id)).toEqual([]);
  });
});

describe('prorate: the proration lines wait for the next renewal order', () => {
  it('nothing is charged now; the preview is the renewal order (prorations + the new period)', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const body = { product_id: premium.product.id, proration_behavior: 'prorate' };
    const quoted = await preview(s.id, body);
    expect(quoted.body).toMatchObject({
      items: [...POLAR_CASE_ITEMS, { label: 'Premium', amount: 2000, proration: false }],
      total_amount: 3450,
    });
    const res = await patch(s.id, body);
    expect(res.status).toBe(200);
    expect(res.body.product_id).toBe(premium.product.id);
    expect(await ordersOf(s.id)).toEqual([]);
    expect(await paymentsOf(customer.id)).toEqual([]);
    const stored = await api('GET', `/v1/subscriptions/${s.id}`);
    expect(stored.body.pending_update).toBeNull();
  });
});

describe('next_period: a pending update applied at the renewal', () => {
  it('stores the change for the period end, previews the renewal at the new plan, and can be cleared', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, premium);
    await advance(ONE_DAY);
    const body = { product_id: basic.product.id, proration_behavior: 'next_period' };
    const quoted = await preview(s.id, body);
    expect(quoted.body).toEqual({
      applies_at: new Date(s.currentPeriodEnd).toISOString(),
      currency: 'usd',
      items: [{ label: 'Basic', amount: 500, proration: false }],
      subtotal_amount: 500,
      discount_amount: 0,
      net_amount: 500,
      tax_amount: 0,
      total_amount: 500,
    });
    const res = await patch(s.id, body);
    expect(res.status).toBe(200);
    expect(res.body.product_id).toBe(premium.product.id);
    expect(res.body.pending_update).toMatchObject({ product_id: basic.product.id, seats: null });
    expect(await ordersOf(s.id)).toEqual([]);
    const cleared = await patch(s.id, { pending_update: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.pending_update).toBeNull();
  });
});

describe("direction-aware defaults: the organization's choice per direction, a request may override it", () => {
  const settings = (extra: Record<string, unknown>) => ({
    subscription_settings: {
      allow_multiple_subscriptions: false,
      proration_behavior: 'prorate',
      benefit_revocation_grace_period: 0,
      prevent_trial_abuse: false,
      allow_customer_updates: true,
      ...extra,
    },
  });
  const setSettings = (extra: Record<string, unknown>) =>
    api('PATCH', `/v1/organizations/${tenant.organizationId}`, settings(extra), tenant.pat);

  afterAll(async () => {
    await setSettings({ proration_behavior_upgrade: null, proration_behavior_downgrade: null });
  });

  it('validates the new settings like proration_behavior (422 at their key) and answers them', async () => {
    const bad = await setSettings({ proration_behavior_upgrade: 'sometimes' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'subscription_settings', 'proration_behavior_upgrade']);
    const ok = await setSettings({
      proration_behavior_upgrade: 'invoice',
      proration_behavior_downgrade: 'next_period',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.subscription_settings).toMatchObject({
      proration_behavior: 'prorate',
      proration_behavior_upgrade: 'invoice',
      proration_behavior_downgrade: 'next_period',
    });
  });

  it('an upgrade is charged now, a downgrade waits for the period end, a named behaviour wins', async () => {
    await setSettings({ proration_behavior_upgrade: 'invoice', proration_behavior_downgrade: 'next_period' });
    const customer = await customerWithCard();
    const up = await subscribe(customer, basic);
    const down = await subscribe(customer, premium);
    const overridden = await subscribe(customer, premium);
    await advance(ONE_DAY);

    expect((await patch(up.id, { product_id: premium.product.id })).status).toBe(200);
    const [upgradeOrder] = await ordersOf(up.id);
    expect(upgradeOrder).toMatchObject({ billing_reason: 'subscription_update', total_amount: 1450 });

    const downgraded = await patch(down.id, { product_id: basic.product.id });
    expect(downgraded.body.product_id).toBe(premium.product.id);
    expect(downgraded.body.pending_update).toMatchObject({ product_id: basic.product.id });
    expect(await ordersOf(down.id)).toEqual([]);

    const now = await patch(overridden.id, { product_id: basic.product.id, proration_behavior: 'invoice' });
    expect(now.body.product_id).toBe(basic.product.id);
    expect((await ordersOf(overridden.id))[0]).toMatchObject({ total_amount: -1450 });
  });

  it("the customer portal's plan changes follow the organization's choice (a customer never names one)", async () => {
    await setSettings({ proration_behavior_upgrade: 'invoice', proration_behavior_downgrade: 'next_period' });
    const customer = await customerWithCard();
    const up = await subscribe(customer, basic);
    const down = await subscribe(customer, premium);
    await advance(ONE_DAY);
    const session = await api('POST', '/v1/customer-sessions/', { customer_id: customer.id });
    const portal = (id: string, body: unknown) =>
      api('PATCH', `/v1/customer-portal/subscriptions/${id}`, body, session.body.token);

    const upgraded = await portal(up.id, { product_id: premium.product.id });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.product_id).toBe(premium.product.id);
    expect((await ordersOf(up.id))[0]).toMatchObject({ billing_reason: 'subscription_update', total_amount: 1450 });

    const downgraded = await portal(down.id, { product_id: basic.product.id });
    expect(downgraded.status).toBe(200);
    expect(downgraded.body.pending_update).toMatchObject({ product_id: basic.product.id });
    expect(await ordersOf(down.id)).toEqual([]);

    const named = await portal(down.id, { product_id: basic.product.id, proration_behavior: 'invoice' });
    expect(named.status).toBe(422);
    expect(named.body.detail[0]).toMatchObject({ loc: ['body', 'proration_behavior'], type: 'extra_forbidden' });
  });
});

describe('seats and currencies', () => {
  it('a seat change is one line: 2 → 5 seats at $10 after one day is 3000 × 29/30 = 2900', async () => {
    const team = await plan('Team', 1000, { perSeat: true });
    const customer = await customerWithCard();
    const s = await subscribe(customer, team, { seats: 2 });
    await advance(ONE_DAY);
    const body = { seats: 5, proration_behavior: 'invoice' };
    const quoted = await preview(s.id, body);
    expect(quoted.body.items).toEqual([{ label: 'Team (2 → 5 seats)', amount: 2900, proration: true }]);
    const res = await patch(s.id, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ seats: 5, amount: 5000 });
    const [order] = await ordersOf(s.id);
    expect(asPreview(order)).toEqual((({ applies_at: _a, ...rest }) => rest)(quoted.body));
    expect(order.total_amount).toBe(2900);
  });

  it('a yen price is not scaled by 100: ¥500 → ¥2000 after one day is -483 + 1933 = ¥1450', async () => {
    const small = await plan('Small', 500, { currency: 'jpy' });
    const large = await plan('Large', 2000, { currency: 'jpy' });
    const customer = await customerWithCard();
    const s = await subscribe(customer, small);
    await advance(ONE_DAY);
    const res = await patch(s.id, { product_id: large.product.id, proration_behavior: 'invoice' });
    expect(res.status).toBe(200);
    const [order] = await ordersOf(s.id);
    expect(order).toMatchObject({ currency: 'jpy', subtotal_amount: 1450, total_amount: 1450 });
    expect(order.items.map((i: any) => i.amount)).toEqual([-483, 1933]);
    expect(await paymentsOf(customer.id)).toEqual([
      { status: 'succeeded', amount: '1450', order_id: order.id, currency: 'jpy' },
    ]);
  });
});
