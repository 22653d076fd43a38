import { randomUUID } from 'node:crypto';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** /v1/discounts/ through the public REST API. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
let productId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  const product = await call(base, 'POST', '/v1/products/', {
    token: alice.oat,
    body: { name: 'Discounted', recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 2000 }] },
  });
  productId = product.body.id;
});

const COMMON_KEYS = [
  'created_at',
  'modified_at',
  'id',
  'metadata',
  'name',
  'code',
  'starts_at',
  'ends_at',
  'max_redemptions',
  'max_redemptions_per_customer',
  'redemptions_count',
  'organization_id',
  'products',
  'duration',
  'type',
];

async function create(token: string, body: Record<string, unknown>) {
  const res = await call(base, 'POST', '/v1/discounts/', { token, body });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

describe('discounts:create — the four kinds', () => {
  it.each([
    [
      { type: 'fixed', duration: 'once', amount: 500, currency: 'usd' },
      ['amount', 'currency', 'amounts'],
      { amount: 500, currency: 'usd', amounts: { usd: 500 } },
    ],
    [
      { type: 'fixed', duration: 'repeating', duration_in_months: 3, amounts: { eur: 250 } },
      ['amount', 'currency', 'amounts', 'duration_in_months'],
      { amount: 250, currency: 'eur', amounts: { eur: 250 }, duration_in_months: 3 },
    ],
    [{ type: 'percentage', duration: 'forever', basis_points: 2500 }, ['basis_points'], { basis_points: 2500 }],
    [
      { type: 'percentage', duration: 'repeating', duration_in_months: 12, basis_points: 1000 },
      ['basis_points', 'duration_in_months'],
      { basis_points: 1000, duration_in_months: 12 },
    ],
  ])('%j', async (kind, extraKeys, expected) => {
    const discount = await create(alice.oat, { name: 'Launch', ...kind });
    expect(Object.keys(discount).sort()).toEqual([...COMMON_KEYS, ...extraKeys].sort());
    expect(discount).toMatchObject({
      ...kind,
      ...expected,
      name: 'Launch',
      redemptions_count: 0,
      organization_id: alice.organizationId,
      products: [],
      metadata: {},
      code: null,
    });
  });

  it('stores code, window, limits, metadata and product restriction', async () => {
    const starts = '2030-01-01T00:00:00Z';
    const discount = await create(alice.pat, {
      organization_id: alice.organizationId,
      name: 'Summer',
      type: 'percentage',
      duration: 'once',
      basis_points: 500,
      code: 'SUMMER30',
      starts_at: starts,
      ends_at: '2030-02-01T00:00:00Z',
      max_redemptions: 10,
      max_redemptions_per_customer: 1,
      metadata: { campaign: 'summer' },
      products: [productId],
    });
    expect(discount).toMatchObject({
      code: 'SUMMER30',
      max_redemptions: 10,
      max_redemptions_per_customer: 1,
      metadata: { campaign: 'summer' },
    });
    expect(new Date(discount.starts_at).toISOString()).toBe(new Date(starts).toISOString());
    expect(discount.products).toHaveLength(1);
    expect(discount.products[0]).toMatchObject({ id: productId, name: 'Discounted', is_recurring: true });
    expect(discount.products[0]).not.toHaveProperty('prices');

    const dup = await call(base, 'POST', '/v1/discounts/', {
      token: alice.oat,
      body: { name: 'Dup', type: 'percentage', duration: 'once', basis_points: 1, code: 'summer30' },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.detail[0]).toMatchObject({ loc: ['body', 'code'] });
    // Another organization may use the same code.
    await create(bob.oat, {
      name: 'Bob summer',
      type: 'percentage',
      duration: 'once',
      basis_points: 1,
      code: 'SUMMER30',
    });
  });

  it('refuses invalid bodies with 422', async () => {
    const cases: Record<string, unknown>[] = [
      { name: 'x', type: 'percentage', duration: 'once', basis_points: 0 },
      { name: 'x', type: 'percentage', duration: 'once', basis_points: 10_001 },
      { name: 'x', type: 'percentage', duration: 'once' },
      { name: 'x', type: 'fixed', duration: 'once' },
      { name: 'x', type: 'fixed', duration: 'once', amount: -1 },
      { name: 'x', type: 'fixed', duration: 'repeating', amount: 1 },
      { name: 'x', type: 'coupon', duration: 'once', amount: 1 },
      { name: 'x', type: 'fixed', duration: 'weekly', amount: 1 },
      { name: '', type: 'fixed', duration: 'once', amount: 1 },
      { name: 'x', type: 'fixed', duration: 'once', amount: 1, max_redemptions: 0 },
      {
        name: 'x',
        type: 'fixed',
        duration: 'once',
        amount: 1,
        starts_at: '2030-02-01T00:00:00Z',
        ends_at: '2030-01-01T00:00:00Z',
      },
      { name: 'x', type: 'fixed', duration: 'once', amount: 1, products: [randomUUID()] },
      { name: 'x', type: 'fixed', duration: 'once', amounts: { usd: 1, eur: 1 } },
      { name: 'x', type: 'fixed', duration: 'once', amount: 1, metadata: { k: 'v'.repeat(501) } },
      { name: 'x', type: 'fixed', duration: 'once', amount: 1, organization_id: alice.organizationId },
    ];
    for (const body of cases) {
      const res = await call(base, 'POST', '/v1/discounts/', { token: alice.oat, body });
      expect([res.status, body]).toEqual([422, body]);
    }
    const bobsProduct = await call(base, 'POST', '/v1/products/', {
      token: bob.oat,
      body: { name: 'Bobs', prices: [{ amount_type: 'free' }] },
    });
    const foreign = await call(base, 'POST', '/v1/discounts/', {
      token: alice.oat,
      body: { name: 'x', type: 'fixed', duration: 'once', amount: 1, products: [bobsProduct.body.id] },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0]).toMatchObject({ loc: ['body', 'products', 0], msg: 'Product does not exist.' });
  });

  it('checks scopes', async () => {
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'discounts:read',
    ]);
    expect(
      (
        await call(base, 'POST', '/v1/discounts/', {
          token: readOnly,
          body: { name: 'x', type: 'fixed', duration: 'once', amount: 1 },
        })
      ).status,
    ).toBe(403);
    expect((await call(base, 'GET', '/v1/discounts/', { token: readOnly })).status).toBe(200);
    const products = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'products:write',
    ]);
    expect((await call(base, 'GET', '/v1/discounts/', { token: products })).status).toBe(403);
  });
});

describe('discounts:list/get/update/delete', () => {
  it('isolates tenants, updates, and soft-deletes', async () => {
    const carol = await createTenant(stack.production);
    const a = await create(carol.oat, {
      name: 'Alpha',
      type: 'fixed',
      duration: 'forever',
      amount: 100,
      code: 'ALPHA1',
    });
    const b = await create(carol.oat, { name: 'Beta', type: 'percentage', duration: 'once', basis_points: 100 });
    const list = await call(base, 'GET', '/v1/discounts/', { token: carol.oat });
    expect(list.body.items.map((d: any) => d.id)).toEqual([b.id, a.id]);
    expect(list.body.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(
      (await call(base, 'GET', '/v1/discounts/?sorting=name', { token: carol.oat })).body.items.map((d: any) => d.id),
    ).toEqual([a.id, b.id]);
    expect(
      (await call(base, 'GET', '/v1/discounts/?query=alpha', { token: carol.oat })).body.items.map((d: any) => d.id),
    ).toEqual([a.id]);
    expect((await call(base, 'GET', `/v1/discounts/${a.id}`, { token: alice.oat })).status).toBe(404);
    expect((await call(base, 'PATCH', `/v1/discounts/${a.id}`, { token: alice.oat, body: { name: 'x' } })).status).toBe(
      404,
    );
    expect((await call(base, 'DELETE', `/v1/discounts/${a.id}`, { token: alice.oat })).status).toBe(404);
    expect(
      (await call(base, 'GET', '/v1/discounts/', { token: alice.oat })).body.items.map((d: any) => d.id),
    ).not.toContain(a.id);

    const updated = await call(base, 'PATCH', `/v1/discounts/${a.id}`, {
      token: carol.oat,
      body: {
        name: 'Alpha 2',
        type: 'percentage',
        basis_points: 3300,
        duration: 'repeating',
        duration_in_months: 2,
        code: null,
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Alpha 2',
      type: 'percentage',
      basis_points: 3300,
      duration: 'repeating',
      duration_in_months: 2,
      code: null,
    });
    expect(updated.body).not.toHaveProperty('amount');
    expect(updated.body.modified_at).not.toBeNull();
    const bad = await call(base, 'PATCH', `/v1/discounts/${a.id}`, { token: carol.oat, body: { type: 'fixed' } });
    expect(bad.status).toBe(422);

    const deleted = await call(base, 'DELETE', `/v1/discounts/${b.id}`, { token: carol.oat });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await call(base, 'GET', `/v1/discounts/${b.id}`, { token: carol.oat })).status).toBe(404);
    expect((await call(base, 'DELETE', `/v1/discounts/${b.id}`, { token: carol.oat })).status).toBe(404);
    // A deleted discount's code is free again.
    const withCode = await create(carol.oat, {
      name: 'Gamma',
      type: 'fixed',
      duration: 'once',
      amount: 1,
      code: 'GAMMA',
    });
    await call(base, 'DELETE', `/v1/discounts/${withCode.id}`, { token: carol.oat });
    await create(carol.oat, { name: 'Gamma again', type: 'fixed', duration: 'once', amount: 1, code: 'gamma' });
  });
});
