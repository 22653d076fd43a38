import { randomUUID } from 'node:crypto';
import { call, createTenant } from '../support/stack.js';
import { stack, base, alice, bob, monthly, create, useProductsStack } from './support/products.js';

/** /v1/products/ through the public REST API: REST → gateway → billing → PostgreSQL. */
useProductsStack();

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

describe('is_deletable', () => {
  const get = async (id: string) => (await call(base, 'GET', `/v1/products/${id}`, { token: alice.oat })).body;

  it('is true until an order, a subscription or a live discount references the product', async () => {
    const plan = await create(alice.oat, monthly('Free plan', { prices: [{ amount_type: 'free' }] }));
    const restricted = await create(alice.oat, monthly('Restricted'));
    expect(plan.is_deletable).toBe(true);
    expect((await get(plan.id)).is_deletable).toBe(true);

    const customer = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `deletable-${randomUUID()}@example.com` },
    });
    const subscription = await call(base, 'POST', '/v1/subscriptions/', {
      token: alice.oat,
      body: { product_id: plan.id, customer_id: customer.body.id },
    });
    expect(subscription.status).toBe(201);
    expect(subscription.body.product.is_deletable).toBe(false);
    expect((await get(plan.id)).is_deletable).toBe(false);

    const discount = await call(base, 'POST', '/v1/discounts/', {
      token: alice.oat,
      body: {
        name: 'Only restricted',
        type: 'percentage',
        duration: 'once',
        basis_points: 1000,
        products: [restricted.id],
      },
    });
    expect(discount.status).toBe(201);
    expect((await get(restricted.id)).is_deletable).toBe(false);
    expect((await call(base, 'DELETE', `/v1/discounts/${discount.body.id}`, { token: alice.oat })).status).toBe(204);
    const listed = await call(base, 'GET', `/v1/products/?id=${restricted.id}&id=${plan.id}`, { token: alice.oat });
    expect(Object.fromEntries(listed.body.items.map((p: any) => [p.id, p.is_deletable]))).toEqual({
      [restricted.id]: true,
      [plan.id]: false,
    });
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
