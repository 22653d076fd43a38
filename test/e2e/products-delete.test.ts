import { randomUUID } from 'node:crypto';
import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { call } from '../support/stack.js';
import { alice, base, bob, create, monthly, stack, useProductsStack } from './support/products.js';

/**
 * `DELETE /v1/products/{id}` (docs/products.md#deleting-a-product): a soft delete of a product nothing
 * uses, by the rule `is_deletable` shows; 409 ProductNotDeletable for the others. Through SDK 1.0.1 and REST.
 */
useProductsStack();

const polar = (accessToken: string) => createPolar({ accessToken, baseUrl: base });
const get = (id: string, token = alice.oat) => call(base, 'GET', `/v1/products/${id}`, { token });
const remove = (id: string, token = alice.oat) => call(base, 'DELETE', `/v1/products/${id}`, { token });

describe('DELETE /v1/products/{id}', () => {
  it('deletes a product nothing uses: gone from gets, lists, updates and new checkouts', async () => {
    const product = await create(alice.oat, monthly('Short-lived'));
    const kept = await create(alice.oat, monthly('Kept'));
    // A checkout opened before the delete keeps showing the product it offered.
    const opened = await call(base, 'POST', '/v1/checkouts/', { token: alice.oat, body: { products: [product.id] } });
    expect(opened.status).toBe(201);

    await expect(polar(alice.oat).products.delete(product.id)).resolves.toBeUndefined();

    expect((await get(product.id)).body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    const listed = await call(base, 'GET', `/v1/products/?id=${product.id}&id=${kept.id}`, { token: alice.oat });
    expect(listed.body.items.map((p: any) => p.id)).toEqual([kept.id]);
    expect(listed.body.pagination.total_count).toBe(1);
    const patch = await call(base, 'PATCH', `/v1/products/${product.id}`, { token: alice.oat, body: { name: 'Back' } });
    expect(patch.status).toBe(404);
    expect((await remove(product.id)).status).toBe(404);
    const benefits = await call(base, 'POST', `/v1/products/${product.id}/benefits`, {
      token: alice.oat,
      body: { benefits: [] },
    });
    expect(benefits.status).toBe(404);

    const checkout = await call(base, 'POST', '/v1/checkouts/', { token: alice.oat, body: { products: [product.id] } });
    expect(checkout.status).toBe(422);
    expect(checkout.body.detail[0].loc).toEqual(['body', 'products', 0]);
    const before = await call(base, 'GET', `/v1/checkouts/${opened.body.id}`, { token: alice.oat });
    expect(before.status).toBe(200);
    expect(before.body.product.id).toBe(product.id);
  });

  it('answers 204 with no body over REST', async () => {
    const product = await create(alice.oat, { name: 'One-off', prices: [{ amount_type: 'fixed', price_amount: 100 }] });
    const res = await remove(product.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('refuses a product in use with 409 ProductNotDeletable and changes nothing', async () => {
    const plan = await create(alice.oat, monthly('In use', { prices: [{ amount_type: 'free' }] }));
    const customer = await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `in-use-${randomUUID()}@example.com` },
    });
    const subscription = await call(base, 'POST', '/v1/subscriptions/', {
      token: alice.oat,
      body: { product_id: plan.id, customer_id: customer.body.id },
    });
    expect(subscription.status).toBe(201);

    const res = await remove(plan.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'ProductNotDeletable',
      detail: 'This product has orders, subscriptions or discounts and cannot be deleted; archive it instead.',
    });
    const sdk = await polar(alice.oat)
      .products.delete(plan.id)
      .catch((e: unknown) => e);
    expect(sdk).toMatchObject({ statusCode: 409, error: { error: 'ProductNotDeletable' } });
    expect((await get(plan.id)).body).toMatchObject({ id: plan.id, is_deletable: false, is_archived: false });
  });

  it('drops the product from checkout links: a link left with no product answers 404', async () => {
    const product = await create(alice.oat, monthly('Linked'));
    const other = await create(alice.oat, monthly('Still linked'));
    const link = await call(base, 'POST', '/v1/checkout-links/', {
      token: alice.oat,
      body: { payment_processor: 'stripe', products: [product.id, other.id] },
    });
    const alone = await call(base, 'POST', '/v1/checkout-links/', {
      token: alice.oat,
      body: { payment_processor: 'stripe', products: [product.id] },
    });
    expect([link.status, alone.status]).toEqual([201, 201]);

    expect((await remove(product.id)).status).toBe(204);

    const read = await call(base, 'GET', `/v1/checkout-links/${link.body.id}`, { token: alice.oat });
    expect(read.body.products.map((p: any) => p.id)).toEqual([other.id]);
    const follow = async (url: string) => {
      const response = await fetch(`${base}${new URL(url).pathname}`, { redirect: 'manual' });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await follow(link.body.url)).toBe(307);
    expect(await follow(alone.body.url)).toBe(404);
  });

  it("is a 404 for another organization's product and a 403 without products:write", async () => {
    const product = await create(bob.oat, monthly('Bob keeps it'));
    const foreign = await remove(product.id, alice.oat);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
    const readOnly = await stack.production.admin.createOrganizationAccessToken(bob.organizationId, ['products:read']);
    expect((await remove(product.id, readOnly)).status).toBe(403);
    expect((await get(product.id, bob.oat)).status).toBe(200);
    expect((await remove(randomUUID())).status).toBe(404);
    expect((await remove('not-a-uuid')).status).toBe(422);
  });
});
