// Checkout links with Polar's official SDK `@polar-sh/sdk` 0.48.1 (which zod-validates every response):
// create, list, get, update, delete; following a link's `url` opens a fresh checkout each time and
// redirects to its hosted page. Refusals (bad products, scopes, another tenant) over plain REST.
import type { Polar } from '@polar-sh/sdk';
import { ResourceNotFound } from '@polar-sh/sdk/models/errors/resourcenotfound.js';
import { failure, ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

let stack: TestStack;
let owner: Tenant;
let other: Tenant;
let merchant: Polar;
let monthly: string;
let yearly: string;
let discountId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
  merchant = polarClient(stack.sandbox, owner.oat);
  const product = (name: string, interval: 'month' | 'year', amount: number) =>
    ok(
      merchant.products.create({
        name,
        recurringInterval: interval,
        prices: [{ amountType: 'fixed', priceAmount: amount, priceCurrency: 'usd' }],
      }),
    );
  monthly = (await product('Pro monthly', 'month', 1900)).id;
  yearly = (await product('Pro yearly', 'year', 19000)).id;
  discountId = (
    await ok(
      merchant.discounts.create({
        name: 'Link ten',
        type: 'fixed',
        amount: 1000,
        currency: 'usd',
        duration: 'once',
      } as never),
    )
  ).id;
});

/** A URL of the public base (`PUBLIC_URL`, not where this test's server listens) on the test server. */
const local = (url: string) => {
  const parsed = new URL(url);
  return `${stack.sandbox.baseUrl}${parsed.pathname}${parsed.search}`;
};

/** Follows a link's URL without following the redirect: the status and where it points. */
async function follow(url: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(local(url), { redirect: 'manual' });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

describe('checkout links with the SDK', () => {
  it('creates a link whose URL opens a new checkout every time', async () => {
    const link = await ok(
      merchant.checkoutLinks.create({
        paymentProcessor: 'stripe',
        products: [monthly, yearly],
        label: 'Pricing page',
        discountId,
        successUrl: 'https://shop.example.com/thanks?checkout_id={CHECKOUT_ID}',
        metadata: { campaign: 'spring' },
      }),
    );
    expect(link).toMatchObject({
      paymentProcessor: 'stripe',
      label: 'Pricing page',
      allowDiscountCodes: true,
      requireBillingAddress: false,
      discountId,
      organizationId: owner.organizationId,
      metadata: { campaign: 'spring' },
      successUrl: 'https://shop.example.com/thanks?checkout_id={CHECKOUT_ID}',
    });
    expect(link.clientSecret).toMatch(/^polar_cl_/);
    expect(new URL(link.url).pathname).toBe(`/v1/checkout-links/${link.clientSecret}/redirect`);
    expect(link.products.map(p => p.id)).toEqual([monthly, yearly]);
    expect(link.products[0].prices).toHaveLength(1);
    expect(link.discount).toMatchObject({ id: discountId, name: 'Link ten', type: 'fixed' });

    const first = await follow(`${link.url}?customer_email=ada@example.com&utm_source=newsletter`);
    const second = await follow(link.url);
    expect(first.status).toBe(307);
    expect(second.status).toBe(307);
    expect(new URL(first.location!).pathname).toMatch(/^\/checkout\/polar_c_/);
    expect(new URL(second.location!).pathname).toMatch(/^\/checkout\/polar_c_/);
    expect(new URL(first.location!).origin).toBe(new URL(link.url).origin);
    expect(first.location).not.toBe(second.location);

    const listed = await ok(merchant.checkouts.list({ productId: monthly }));
    const opened = listed.result.items.filter(k => [first.location, second.location].includes(k.url));
    expect(opened).toHaveLength(2);
    const prefilled = opened.find(k => k.url === first.location)!;
    expect(prefilled).toMatchObject({
      status: 'open',
      productId: monthly,
      discountId,
      amount: 1900,
      discountAmount: 1000,
      totalAmount: 900,
      customerEmail: 'ada@example.com',
      successUrl: 'https://shop.example.com/thanks?checkout_id={CHECKOUT_ID}',
      metadata: { campaign: 'spring', utm_source: 'newsletter' },
    });
    expect(prefilled.products.map(p => p.id)).toEqual([monthly, yearly]);

    // The link leads to a working page.
    const page = await fetch(local(first.location!));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pro monthly');
  });

  it('lists, gets, updates and deletes links; a deleted link opens nothing', async () => {
    const link = await ok(merchant.checkoutLinks.create({ paymentProcessor: 'stripe', products: [monthly] }));
    const got = await ok(merchant.checkoutLinks.get({ id: link.id }));
    expect(got).toMatchObject({ id: link.id, label: null, discount: null, discountId: null, successUrl: null });

    const page = await ok(merchant.checkoutLinks.list({ productId: [yearly], limit: 100 }));
    expect(page.result.items.map(l => l.id)).not.toContain(link.id);
    const all = await ok(merchant.checkoutLinks.list({ organizationId: owner.organizationId, limit: 100 }));
    expect(all.result.items.map(l => l.id)).toContain(link.id);

    const updated = await ok(
      merchant.checkoutLinks.update({
        id: link.id,
        checkoutLinkUpdate: {
          products: [yearly],
          label: 'Yearly only',
          allowDiscountCodes: false,
          requireBillingAddress: true,
        },
      }),
    );
    expect(updated).toMatchObject({ label: 'Yearly only', allowDiscountCodes: false, requireBillingAddress: true });
    expect(updated.products.map(p => p.id)).toEqual([yearly]);
    expect(updated.modifiedAt).not.toBeNull();

    const opened = await follow(link.url);
    const checkout = await call(
      stack.sandbox.baseUrl,
      'GET',
      `/v1/checkouts/client/${opened.location!.split('/').pop()}`,
    );
    expect(checkout.body).toMatchObject({
      product_id: yearly,
      allow_discount_codes: false,
      require_billing_address: true,
    });

    await ok(merchant.checkoutLinks.delete({ id: link.id }));
    await failure(merchant.checkoutLinks.get({ id: link.id }), ResourceNotFound);
    const gone = await fetch(local(link.url), { redirect: 'manual' });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('This checkout does not exist.');
  });
});

describe('checkout links over REST: refusals', () => {
  const base = () => stack.sandbox.baseUrl;

  it('answers 422 for products that do not exist or belong to another organization, and for no products', async () => {
    const missing = await call(base(), 'POST', '/v1/checkout-links/', {
      token: owner.oat,
      body: { payment_processor: 'stripe', products: [monthly, '00000000-0000-4000-8000-000000000000'] },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'products', 1], msg: 'Product does not exist.' }),
    ]);
    const foreign = await call(base(), 'POST', '/v1/checkout-links/', {
      token: other.oat,
      body: { payment_processor: 'stripe', products: [monthly] },
    });
    expect(foreign.status).toBe(422);
    const none = await call(base(), 'POST', '/v1/checkout-links/', {
      token: owner.oat,
      body: { payment_processor: 'stripe' },
    });
    expect(none.status).toBe(422);
    expect(none.body.detail[0].loc).toEqual(['body', 'products']);
    const badDiscount = await call(base(), 'POST', '/v1/checkout-links/', {
      token: owner.oat,
      body: { payment_processor: 'stripe', products: [monthly], discount_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(badDiscount.status).toBe(422);
    expect(badDiscount.body.detail[0]).toMatchObject({ loc: ['body', 'discount_id'], msg: 'Discount does not exist.' });
  });

  it('takes the deprecated product_id form, hides links from other organizations, and checks scopes', async () => {
    const created = await call(base(), 'POST', '/v1/checkout-links/', {
      token: owner.oat,
      body: { payment_processor: 'stripe', product_id: monthly },
    });
    expect(created.status).toBe(201);
    expect(created.body.products.map((p: { id: string }) => p.id)).toEqual([monthly]);
    const id = created.body.id as string;

    expect((await call(base(), 'GET', `/v1/checkout-links/${id}`, { token: other.oat })).status).toBe(404);
    expect(
      (await call(base(), 'PATCH', `/v1/checkout-links/${id}`, { token: other.oat, body: { label: 'x' } })).status,
    ).toBe(404);
    expect((await call(base(), 'DELETE', `/v1/checkout-links/${id}`, { token: other.oat })).status).toBe(404);
    const list = await call(base(), 'GET', '/v1/checkout-links/', { token: other.oat });
    expect(list.body.items).toEqual([]);

    const readOnly = await stack.sandbox.admin.createOrganizationAccessToken(owner.organizationId, [
      'checkout_links:read',
    ]);
    expect((await call(base(), 'GET', `/v1/checkout-links/${id}`, { token: readOnly })).status).toBe(200);
    const write = await call(base(), 'POST', '/v1/checkout-links/', {
      token: readOnly,
      body: { payment_processor: 'stripe', products: [monthly] },
    });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('insufficient_scope');
    const noScope = await stack.sandbox.admin.createOrganizationAccessToken(owner.organizationId, ['products:read']);
    expect((await call(base(), 'GET', '/v1/checkout-links/', { token: noScope })).status).toBe(403);
    expect((await call(base(), 'GET', '/v1/checkout-links/')).status).toBe(401);
  });
});
