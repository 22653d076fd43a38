import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Checkout rules Polar enforces at create, update and confirm: a seat-based price's seat bounds
 * (narrowed by the checkout's own min/max), and a discount's `max_redemptions` under concurrent
 * confirms (the redemption is taken before the money moves, under the discount's row lock).
 */
let stack: TestStack;
let owner: Tenant;
let base: string;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
const client = (method: string, secret: string, suffix = '', body?: unknown) =>
  call(base, method, `/v1/checkouts/client/${secret}${suffix}`, { body });

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

describe('seats', () => {
  it("refuses seats outside the price's tiers and the checkout's own bounds, at `seats`", async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'Team',
      recurring_interval: 'month',
      prices: [
        {
          amount_type: 'seat_based',
          seat_tiers: {
            tiers: [
              { min_seats: 1, max_seats: 5, price_per_seat: 1000 },
              { min_seats: 6, max_seats: 10, price_per_seat: 800 },
            ],
          },
        },
      ],
    });
    expect(product.status).toBe(201);
    const id = product.body.id;

    const defaulted = await api('POST', '/v1/checkouts/', { products: [id] });
    expect(defaulted.body).toMatchObject({ seats: 1, amount: 1000 });

    const tooFew = await api('POST', '/v1/checkouts/', { products: [id], min_seats: 2, seats: 1 });
    expect(tooFew.status).toBe(422);
    expect(tooFew.body).toEqual({
      error: 'PolarRequestValidationError',
      detail: [
        {
          type: 'greater_than_equal',
          loc: ['body', 'seats'],
          msg: 'Minimum 2 seats required.',
          input: 1,
          ctx: { ge: 2 },
        },
      ],
    });
    const tooMany = await api('POST', '/v1/checkouts/', { products: [id], seats: 11 });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({
      type: 'less_than_equal',
      msg: 'Maximum 10 seats allowed.',
      ctx: { le: 10 },
    });

    const narrowed = await api('POST', '/v1/checkouts/', { products: [id], min_seats: 3, max_seats: 4 });
    expect(narrowed.body).toMatchObject({ seats: 3, amount: 3000 });
    const over = await client('PATCH', narrowed.body.client_secret, '', { seats: 5 });
    expect(over.status).toBe(422);
    expect(over.body.detail[0]).toMatchObject({ loc: ['body', 'seats'], msg: 'Maximum 4 seats allowed.' });
    // Refused changes change nothing.
    expect((await client('GET', narrowed.body.client_secret)).body).toMatchObject({ seats: 3, amount: 3000 });
    const within = await client('PATCH', narrowed.body.client_secret, '', { seats: 4 });
    expect(within.body).toMatchObject({ seats: 4, amount: 4000 });
  });
});

describe('product and price of an update', () => {
  it("refuses another organization's price, or a price outside the checkout's products, at `product_price_id`, and changes nothing", async () => {
    const stranger = await createTenant(stack.sandbox);
    const theirs = await call(base, 'POST', '/v1/products/', {
      token: stranger.oat,
      body: { name: 'Theirs', prices: [{ amount_type: 'fixed', price_amount: 1 }] },
    });
    const monthly = await api('POST', '/v1/products/', {
      name: 'Monthly',
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1500 }],
    });
    const yearly = await api('POST', '/v1/products/', {
      name: 'Yearly',
      recurring_interval: 'year',
      prices: [{ amount_type: 'fixed', price_amount: 15000 }],
    });
    const elsewhere = await api('POST', '/v1/products/', {
      name: 'Not offered',
      prices: [{ amount_type: 'fixed', price_amount: 99 }],
    });
    const checkout = await api('POST', '/v1/checkouts/', { products: [monthly.body.id, yearly.body.id] });
    expect(checkout.status).toBe(201);
    const before = { product_id: monthly.body.id, product_price_id: monthly.body.prices[0].id, amount: 1500 };
    expect(checkout.body).toMatchObject(before);

    const refused = [theirs.body.prices[0].id, elsewhere.body.prices[0].id, '7f1d1c8e-3c4b-4a5e-9f4e-2a7c9d1b6e01'];
    for (const priceId of refused) {
      const patches = [
        await api('PATCH', `/v1/checkouts/${checkout.body.id}`, {
          product_price_id: priceId,
          customer_name: 'Mallory',
        }),
        await client('PATCH', checkout.body.client_secret, '', { product_price_id: priceId, customer_name: 'Mallory' }),
      ];
      for (const res of patches)
        expect([res.status, res.body]).toEqual([
          422,
          {
            error: 'PolarRequestValidationError',
            detail: [
              {
                type: 'value_error',
                loc: ['body', 'product_price_id'],
                msg: 'Price is not available in this checkout.',
                input: priceId,
              },
            ],
          },
        ]);
    }
    // A price of one product named with another product is refused too.
    const mismatched = await client('PATCH', checkout.body.client_secret, '', {
      product_id: monthly.body.id,
      product_price_id: yearly.body.prices[0].id,
    });
    expect([mismatched.status, mismatched.body.detail?.[0]?.loc]).toEqual([422, ['body', 'product_price_id']]);
    // Another organization's product is refused at `product_id`.
    const foreignProduct = await api('PATCH', `/v1/checkouts/${checkout.body.id}`, { product_id: theirs.body.id });
    expect([foreignProduct.status, foreignProduct.body.detail?.[0]?.loc]).toEqual([422, ['body', 'product_id']]);
    const unchanged = await api('GET', `/v1/checkouts/${checkout.body.id}`);
    expect(unchanged.body).toMatchObject({ ...before, customer_name: null });

    // The checkout's own price selects it and its product.
    const chosen = await client('PATCH', checkout.body.client_secret, '', {
      product_price_id: yearly.body.prices[0].id,
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({
      product_id: yearly.body.id,
      product_price_id: yearly.body.prices[0].id,
      amount: 15000,
    });
  });
});

describe('discount redemptions', () => {
  it('lets only max_redemptions of concurrent confirms redeem a discount', async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'Limited offer',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 5000 }],
    });
    const discount = await api('POST', '/v1/discounts/', {
      name: 'First two',
      type: 'percentage',
      duration: 'once',
      basis_points: 5000,
      max_redemptions: 2,
    });
    expect(discount.status).toBe(201);
    const checkouts = [];
    // Three at once: the test stack's pool has 4 connections and the test processor takes one per call.
    for (let i = 0; i < 3; i += 1) {
      const k = await api('POST', '/v1/checkouts/', {
        products: [product.body.id],
        discount_id: discount.body.id,
        customer_email: `limited-${i}@example.com`,
      });
      expect(k.body).toMatchObject({ discount_amount: 2500, total_amount: 2500 });
      checkouts.push(k.body);
    }
    const answers = await Promise.all(
      checkouts.map(k => client('POST', k.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' })),
    );
    for (const answer of answers) {
      if (answer.status === 422)
        expect(answer.body.detail).toEqual([
          {
            type: 'value_error',
            loc: ['body', 'discount_id'],
            msg: 'Discount is no longer redeemable.',
            input: discount.body.id,
          },
        ]);
      else expect(answer.status).toBe(200);
    }
    const orders = (await api('GET', `/v1/orders/?product_id=${product.body.id}&limit=100`)).body.items;
    // Every sale either had the discount (at most two) or paid the full price after losing it.
    expect(orders.filter((o: { discount_id: string | null }) => o.discount_id === discount.body.id)).toHaveLength(2);
    for (const o of orders) expect(o.net_amount).toBe(o.discount_id ? 2500 : 5000);
    expect((await api('GET', `/v1/discounts/${discount.body.id}`)).body.redemptions_count).toBe(2);
  });

  it('gives the redemption back when the card is declined', async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'One left',
      recurring_interval: null,
      prices: [{ amount_type: 'fixed', price_amount: 1000 }],
    });
    const discount = await api('POST', '/v1/discounts/', {
      name: 'Only one',
      type: 'percentage',
      duration: 'once',
      basis_points: 1000,
      max_redemptions: 1,
    });
    const k = await api('POST', '/v1/checkouts/', {
      products: [product.body.id],
      discount_id: discount.body.id,
      customer_email: 'declined-discount@example.com',
    });
    const declined = await client('POST', k.body.client_secret, '/confirm', {
      confirmation_token_id: 'pm_card_chargeDeclined',
    });
    expect(declined.status).toBe(400);
    expect((await api('GET', `/v1/discounts/${discount.body.id}`)).body.redemptions_count).toBe(0);
    const paid = await client('POST', k.body.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ discount_id: discount.body.id, total_amount: 900 });
    expect((await api('GET', `/v1/discounts/${discount.body.id}`)).body.redemptions_count).toBe(1);
  });
});

describe('trial abuse (`prevent_trial_abuse`)', () => {
  const trialCheckout = async (product: string, email: string) => {
    const checkout = await api('POST', '/v1/checkouts/', { products: [product], customer_email: email });
    expect(checkout.status).toBe(201);
    expect(checkout.body.trial_end).not.toBeNull();
    return client('POST', checkout.body.client_secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
  };

  it('refuses a second trial to the same person (any alias) with 403 TrialAlreadyRedeemed, only when the organization asks', async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'Trial plan',
      recurring_interval: 'month',
      trial_interval: 'day',
      trial_interval_count: 7,
      prices: [{ amount_type: 'fixed', price_amount: 900 }],
    });
    expect(product.status).toBe(201);

    // Off (the default): a second trial is granted.
    expect((await trialCheckout(product.body.id, 'trial-a@example.com')).status).toBe(200);
    expect((await trialCheckout(product.body.id, 'trial-a@example.com')).status).toBe(200);

    // Polar's OrganizationSubscriptionSettings is replaced whole: the current settings with the switch on.
    const current = await api('GET', `/v1/organizations/${owner.organizationId}`);
    const settings = await api('PATCH', `/v1/organizations/${owner.organizationId}`, {
      subscription_settings: { ...current.body.subscription_settings, prevent_trial_abuse: true },
    });
    expect(settings.status).toBe(200);
    expect(settings.body.subscription_settings.prevent_trial_abuse).toBe(true);

    // On: the same address, with a +tag and another case, is the same person.
    const refused = await trialCheckout(product.body.id, 'Trial-A+again@Example.com');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'TrialAlreadyRedeemed',
      detail: 'You have already used a trial for this product. Trials can only be used once per customer.',
    });
    // Someone who never trialled still gets one.
    expect((await trialCheckout(product.body.id, 'trial-b@example.com')).status).toBe(200);
  });
});
