import { call } from '../support/stack.js';
import {
  stack,
  base,
  alice,
  bob,
  PRODUCT_KEYS,
  PRICE_KEYS,
  monthly,
  create,
  useProductsStack,
} from './support/products.js';

/** /v1/products/ through the public REST API: REST → gateway → billing → PostgreSQL. */
useProductsStack();

describe('products:create', () => {
  it('creates a recurring product with the full wire shape', async () => {
    const product = await create(
      alice.oat,
      monthly('Pro monthly', { description: 'All of it', metadata: { tier: 'pro', seats: 3, beta: true } }),
    );
    expect(Object.keys(product).sort()).toEqual([...PRODUCT_KEYS].sort());
    expect(product).toMatchObject({
      name: 'Pro monthly',
      description: 'All of it',
      visibility: 'public',
      recurring_interval: 'month',
      recurring_interval_count: 1,
      is_recurring: true,
      is_archived: false,
      organization_id: alice.organizationId,
      metadata: { tier: 'pro', seats: 3, beta: true },
      trial_interval: null,
      trial_interval_count: null,
      meter_interval: null,
      benefits: [],
      medias: [],
      attached_custom_fields: [],
      modified_at: null,
    });
    expect(product.prices).toHaveLength(1);
    const [price] = product.prices;
    expect(Object.keys(price).sort()).toEqual([...PRICE_KEYS, 'price_amount'].sort());
    expect(price).toMatchObject({
      amount_type: 'fixed',
      price_amount: 1500,
      price_currency: 'usd',
      source: 'catalog',
      type: 'recurring',
      recurring_interval: 'month',
      product_id: product.id,
      is_archived: false,
      tax_behavior: null,
    });
    expect(product.created_at).toMatch(/Z$/);
  });

  it('creates one-time products with custom, free and seat-based prices and a trial on recurring ones', async () => {
    const oneTime = await create(alice.oat, {
      name: 'Donation',
      prices: [{ amount_type: 'custom', minimum_amount: 100, maximum_amount: 10_000, preset_amount: 500 }],
    });
    expect(oneTime).toMatchObject({ is_recurring: false, recurring_interval: null, recurring_interval_count: null });
    expect(oneTime.prices[0]).toEqual(
      expect.objectContaining({
        amount_type: 'custom',
        minimum_amount: 100,
        maximum_amount: 10_000,
        preset_amount: 500,
        type: 'one_time',
        recurring_interval: null,
      }),
    );
    expect(oneTime.prices[0]).not.toHaveProperty('price_amount');

    const defaults = await create(alice.oat, { name: 'Tip jar', prices: [{ amount_type: 'custom' }] });
    expect(defaults.prices[0]).toMatchObject({ minimum_amount: 50, maximum_amount: null, preset_amount: null });

    const free = await create(alice.oat, {
      name: 'Free tier',
      recurring_interval: 'year',
      recurring_interval_count: 2,
      prices: [{ amount_type: 'free' }],
    });
    expect(free).toMatchObject({ recurring_interval: 'year', recurring_interval_count: 2 });
    // Polar has no `free` price type any more: it reads as a fixed price of 0 (docs/polar/resources.md).
    expect(Object.keys(free.prices[0]).sort()).toEqual([...PRICE_KEYS, 'price_amount'].sort());
    expect(free.prices[0]).toMatchObject({ amount_type: 'fixed', price_amount: 0 });

    const seats = await create(alice.oat, {
      name: 'Team',
      recurring_interval: 'month',
      trial_interval: 'day',
      trial_interval_count: 14,
      prices: [
        {
          amount_type: 'seat_based',
          price_currency: 'EUR',
          seat_tiers: {
            tiers: [
              { min_seats: 1, max_seats: 9, price_per_seat: 1000 },
              { min_seats: 10, price_per_seat: 800 },
            ],
          },
        },
      ],
    });
    expect(seats).toMatchObject({ trial_interval: 'day', trial_interval_count: 14 });
    expect(seats.prices[0]).toMatchObject({
      amount_type: 'seat_based',
      price_currency: 'eur',
      price_per_seat: 1000,
      seat_tiers: {
        seat_tier_type: 'volume',
        minimum_seats: 1,
        maximum_seats: null,
        tiers: [
          { min_seats: 1, max_seats: 9, price_per_seat: 1000 },
          { min_seats: 10, max_seats: null, price_per_seat: 800 },
        ],
      },
    });
  });

  it('refuses invalid bodies with 422 items', async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ name: 'ab', prices: [{ amount_type: 'fixed', price_amount: 1 }] }, ['body', 'name']],
      [{ name: 'Valid', prices: [] }, ['body', 'prices']],
      [{ name: 'Valid', prices: [{ amount_type: 'fixed', price_amount: -1 }] }, ['body', 'prices', 0, 'price_amount']],
      [{ name: 'Valid', prices: [{ amount_type: 'fixed' }] }, ['body', 'prices', 0, 'price_amount']],
      // An unknown tag is pydantic's union_tag_invalid, located at the union (the price), not at the tag.
      [{ name: 'Valid', prices: [{ amount_type: 'metered' }] }, ['body', 'prices', 0]],
      [
        { name: 'Valid', recurring_interval: 'fortnight', prices: [{ amount_type: 'free' }] },
        ['body', 'recurring_interval'],
      ],
      [
        {
          name: 'Valid',
          recurring_interval: 'month',
          recurring_interval_count: 1000,
          prices: [{ amount_type: 'free' }],
        },
        ['body', 'recurring_interval_count'],
      ],
      [
        { name: 'Valid', trial_interval: 'day', trial_interval_count: 7, prices: [{ amount_type: 'free' }] },
        ['body', 'trial_interval'],
      ],
      [
        {
          name: 'Valid',
          prices: [
            { amount_type: 'fixed', price_amount: 1 },
            { amount_type: 'fixed', price_amount: 2 },
          ],
        },
        ['body', 'prices'],
      ],
      [
        { name: 'Valid', prices: [{ amount_type: 'custom', minimum_amount: 500, maximum_amount: 100 }] },
        ['body', 'prices', 0, 'maximum_amount'],
      ],
      [
        {
          name: 'Valid',
          prices: [{ amount_type: 'seat_based', seat_tiers: { tiers: [{ min_seats: 2, price_per_seat: 1 }] } }],
        },
        ['body', 'prices', 0, 'seat_tiers', 'tiers', 0, 'min_seats'],
      ],
      [{ name: 'Valid', prices: [{ amount_type: 'free' }], metadata: { ['k'.repeat(41)]: 'v' } }, ['body', 'metadata']],
      [
        { name: 'Valid', prices: [{ amount_type: 'free' }], metadata: { key: 'v'.repeat(501) } },
        ['body', 'metadata', 'key'],
      ],
      [
        {
          name: 'Valid',
          prices: [{ amount_type: 'free' }],
          metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
        },
        ['body', 'metadata'],
      ],
    ];
    for (const [body, loc] of cases) {
      const res = await call(base, 'POST', '/v1/products/', { token: alice.oat, body });
      expect([res.status, body]).toEqual([422, body]);
      expect(res.body.detail.some((i: any) => JSON.stringify(i.loc).startsWith(JSON.stringify(loc).slice(0, -1)))).toBe(
        true,
      );
    }
  });

  it('applies the organization_id rules of OAT and PAT', async () => {
    const withOat = await call(base, 'POST', '/v1/products/', {
      token: alice.oat,
      body: monthly('X product', { organization_id: alice.organizationId }),
    });
    expect(withOat.status).toBe(422);
    expect(withOat.body.detail[0]).toMatchObject({ loc: ['body', 'organization_id'], type: 'organization_token' });

    const patWithout = await call(base, 'POST', '/v1/products/', { token: alice.pat, body: monthly() });
    expect(patWithout.status).toBe(422);
    expect(patWithout.body.detail[0]).toMatchObject({ loc: ['body', 'organization_id'], type: 'missing' });

    const patOther = await call(base, 'POST', '/v1/products/', {
      token: alice.pat,
      body: monthly('Sneaky', { organization_id: bob.organizationId }),
    });
    expect(patOther.status).toBe(422);

    const patOwn = await create(alice.pat, monthly('Via PAT', { organization_id: alice.organizationId }));
    expect(patOwn.organization_id).toBe(alice.organizationId);
  });

  it('checks scopes and subjects', async () => {
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'products:read',
    ]);
    const denied = await call(base, 'POST', '/v1/products/', { token: readOnly, body: monthly() });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('insufficient_scope');
    expect((await call(base, 'GET', '/v1/products/', { token: readOnly })).status).toBe(200);
    const none = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, ['customers:read']);
    expect((await call(base, 'GET', '/v1/products/', { token: none })).status).toBe(403);
    expect((await call(base, 'GET', '/v1/products/')).status).toBe(401);
  });
});
