import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/** /v1/products/ through the public REST API: REST → gateway → billing → PostgreSQL. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  stack = await startTestStack('products');
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
});
afterAll(async () => {
  await stack?.close();
});

const PRODUCT_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'trial_interval',
  'trial_interval_count',
  'name',
  'description',
  'visibility',
  'recurring_interval',
  'recurring_interval_count',
  'meter_interval',
  'meter_interval_count',
  'is_recurring',
  'is_archived',
  'organization_id',
  'metadata',
  'prices',
  'benefits',
  'medias',
  'attached_custom_fields',
];
const PRICE_KEYS = [
  'created_at',
  'modified_at',
  'id',
  'source',
  'amount_type',
  'price_currency',
  'tax_behavior',
  'is_archived',
  'product_id',
  'type',
  'recurring_interval',
];

const monthly = (name = 'Pro monthly', extra: Record<string, unknown> = {}) => ({
  name,
  recurring_interval: 'month',
  prices: [{ amount_type: 'fixed', price_amount: 1500 }],
  ...extra,
});

async function create(token: string, body: Record<string, unknown>) {
  const res = await call(base, 'POST', '/v1/products/', { token, body });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

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
    expect(Object.keys(free.prices[0]).sort()).toEqual([...PRICE_KEYS].sort());

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

describe('products:get, list and tenant isolation', () => {
  it("hides another organization's products", async () => {
    const product = await create(bob.oat, monthly('Bob only'));
    expect((await call(base, 'GET', `/v1/products/${product.id}`, { token: bob.pat })).status).toBe(200);
    const res = await call(base, 'GET', `/v1/products/${product.id}`, { token: alice.oat });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    expect(
      (await call(base, 'PATCH', `/v1/products/${product.id}`, { token: alice.oat, body: { name: 'Stolen' } })).status,
    ).toBe(404);
    expect((await call(base, 'GET', `/v1/products/${randomUUID()}`, { token: alice.oat })).status).toBe(404);
    const list = await call(base, 'GET', `/v1/products/?id=${product.id}`, { token: alice.oat });
    expect(list.body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });
    const byOrg = await call(base, 'GET', `/v1/products/?organization_id=${bob.organizationId}`, { token: alice.pat });
    expect(byOrg.body.items).toEqual([]);
  });

  it('filters, pages and sorts', async () => {
    const carol = await createTenant(stack.production);
    const cheap = await create(carol.oat, {
      name: 'Cheap one-time',
      prices: [{ amount_type: 'fixed', price_amount: 100 }],
    });
    const mid = await create(carol.oat, monthly('Middle monthly', { visibility: 'private' }));
    const dear = await create(carol.oat, {
      name: 'Dear yearly',
      recurring_interval: 'year',
      prices: [{ amount_type: 'fixed', price_amount: 99_900 }],
    });
    const ids = (res: { body: any }) => res.body.items.map((p: any) => p.id);

    const all = await call(base, 'GET', '/v1/products/', { token: carol.oat });
    expect(ids(all)).toEqual([dear.id, mid.id, cheap.id]);
    expect(all.body.pagination).toEqual({ total_count: 3, max_page: 1 });
    expect(ids(await call(base, 'GET', '/v1/products/?is_recurring=true', { token: carol.oat }))).toEqual([
      dear.id,
      mid.id,
    ]);
    expect(ids(await call(base, 'GET', '/v1/products/?is_recurring=false', { token: carol.oat }))).toEqual([cheap.id]);
    expect(ids(await call(base, 'GET', '/v1/products/?query=MONTHLY', { token: carol.oat }))).toEqual([mid.id]);
    expect(
      ids(await call(base, 'GET', '/v1/products/?visibility=private&visibility=draft', { token: carol.oat })),
    ).toEqual([mid.id]);
    expect(ids(await call(base, 'GET', `/v1/products/?id=${cheap.id}&id=${dear.id}`, { token: carol.oat }))).toEqual([
      dear.id,
      cheap.id,
    ]);
    expect(ids(await call(base, 'GET', '/v1/products/?sorting=name', { token: carol.oat }))).toEqual([
      cheap.id,
      dear.id,
      mid.id,
    ]);
    expect(ids(await call(base, 'GET', '/v1/products/?sorting=-price_amount', { token: carol.oat }))).toEqual([
      dear.id,
      mid.id,
      cheap.id,
    ]);
    expect(
      ids(await call(base, 'GET', '/v1/products/?sorting=price_amount_type&sorting=created_at', { token: carol.oat })),
    ).toEqual([cheap.id, mid.id, dear.id]);
    const page2 = await call(base, 'GET', '/v1/products/?limit=2&page=2', { token: carol.oat });
    expect(ids(page2)).toEqual([cheap.id]);
    expect(page2.body.pagination).toEqual({ total_count: 3, max_page: 2 });
    const bad = await call(base, 'GET', '/v1/products/?sorting=price', { token: carol.oat });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc.slice(0, 2)).toEqual(['query', 'sorting']);
    expect((await call(base, 'GET', '/v1/products/?page=0', { token: carol.oat })).status).toBe(422);
  });
});

describe('products:update', () => {
  it('updates fields, keeps, adds and archives prices, and archives the product', async () => {
    const product = await create(alice.oat, monthly('Updatable', { metadata: { a: '1' } }));
    const [keep] = product.prices;
    const res = await call(base, 'PATCH', `/v1/products/${product.id}`, {
      token: alice.oat,
      body: {
        name: 'Updated',
        description: 'Now described',
        visibility: 'draft',
        metadata: { b: 2 },
        recurring_interval_count: 3,
        trial_interval: 'week',
        trial_interval_count: 1,
        prices: [{ id: keep.id }, { amount_type: 'fixed', price_currency: 'eur', price_amount: 1400 }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Updated',
      description: 'Now described',
      visibility: 'draft',
      metadata: { b: 2 },
      recurring_interval_count: 3,
      trial_interval: 'week',
      trial_interval_count: 1,
    });
    expect(res.body.modified_at).not.toBeNull();
    expect(res.body.prices.map((p: any) => [p.price_currency, p.price_amount])).toEqual([
      ['usd', 1500],
      ['eur', 1400],
    ]);
    expect(res.body.prices[0].id).toBe(keep.id);

    const replaced = await call(base, 'PATCH', `/v1/products/${product.id}`, {
      token: alice.oat,
      body: { prices: [{ amount_type: 'custom', minimum_amount: 0 }] },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.prices).toHaveLength(1);
    expect(replaced.body.prices[0]).toMatchObject({ amount_type: 'custom', minimum_amount: 0 });

    const archived = await call(base, 'PATCH', `/v1/products/${product.id}`, {
      token: alice.oat,
      body: { is_archived: true },
    });
    expect(archived.body.is_archived).toBe(true);
    const listed = await call(base, 'GET', `/v1/products/?is_archived=false&id=${product.id}`, { token: alice.oat });
    expect(listed.body.items).toEqual([]);
    const empty = await call(base, 'PATCH', `/v1/products/${product.id}`, { token: alice.oat, body: {} });
    expect(empty.status).toBe(200);
  });

  it('refuses invalid updates', async () => {
    const oneTime = await create(alice.oat, { name: 'One-off', prices: [{ amount_type: 'fixed', price_amount: 100 }] });
    const other = await create(alice.oat, { name: 'Other', prices: [{ amount_type: 'fixed', price_amount: 100 }] });
    const cases: Record<string, unknown>[] = [
      { recurring_interval: 'month' },
      { trial_interval: 'day', trial_interval_count: 3 },
      { prices: [{ id: other.prices[0].id }] },
      { prices: [] },
      { name: 'no' },
    ];
    for (const body of cases) {
      const res = await call(base, 'PATCH', `/v1/products/${oneTime.id}`, { token: alice.oat, body });
      expect([res.status, body]).toEqual([422, body]);
    }
    const recurring = await create(alice.oat, monthly('Stays recurring'));
    expect(
      (
        await call(base, 'PATCH', `/v1/products/${recurring.id}`, {
          token: alice.oat,
          body: { recurring_interval: null },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await call(base, 'PATCH', `/v1/products/${recurring.id}`, {
          token: alice.oat,
          body: { recurring_interval: 'year' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('outbox', () => {
  it('records product.created and product.updated with the wire payload', async () => {
    const product = await create(alice.oat, monthly('Evented'));
    await call(base, 'PATCH', `/v1/products/${product.id}`, { token: alice.oat, body: { name: 'Evented 2' } });
    const client = new pg.Client({
      connectionString: stack.production.environment.billing.orm.config.get('clientUrl'),
    });
    await client.connect();
    try {
      const { rows } = await client.query(
        `select type, organization_id, payload from billing.events where payload->>'id' = $1 order by created_at`,
        [product.id],
      );
      expect(rows.map(r => r.type)).toEqual(['product.created', 'product.updated']);
      expect(rows[0].organization_id).toBe(alice.organizationId);
      expect(rows[1].payload).toMatchObject({
        id: product.id,
        name: 'Evented 2',
        prices: [expect.objectContaining({ price_amount: 1500 })],
      });
    } finally {
      await client.end();
    }
  });
});

describe('GraphQL', () => {
  it('serves Organization.products across subgraphs', async () => {
    const res = await call(base, 'POST', '/graphql', {
      token: alice.oat,
      body: {
        query: `query($id: ID!) { organization(id: $id) { slug products(limit: 1) { items { name organization { id } prices { priceAmount } } pagination { totalCount } } } }`,
        variables: { id: alice.organizationId },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.organization.slug).toBe(alice.slug);
    expect(res.body.data.organization.products.items).toHaveLength(1);
    expect(res.body.data.organization.products.pagination.totalCount).toBeGreaterThan(1);
  });
});
