import { createBenefit } from '../support/portal-benefits.js';
import { call, type Tenant, type TestStack } from '../support/stack.js';
import { WebClient } from './client.js';
import { useDashboardTenant, EVIL, signInWithCsrf } from './dashboard-support.js';

/**
 * The dashboard's catalog over real HTTP (rest-adapter/web/dashboard, docs/dashboard.md): product prices and
 * benefits, discounts and checkout links, each change read back through the API; CSRF, a member's rights as
 * the API grants them, and escaping of names the merchant typed.
 */
let stack: TestStack;
let base: string;
let owner: Tenant;
let memberEmail: string;
let dash: string;

useDashboardTenant(
  {
    memberPrefix: 'catalog-member',
  },
  tenant => {
    ({ stack, base, owner, memberEmail, dash } = tenant);
  },
);

const signedIn = (email: string) => signInWithCsrf(base, email, `${dash}/products`);

const api = async (method: string, path: string, body?: unknown) =>
  call(base, method, path, { token: owner.oat, ...(body ? { body } : {}) });

describe('products: prices and benefits', () => {
  it('creates a pay-what-you-want product, then replaces its price with a fixed one, read back through the API', async () => {
    const { client, csrf } = await signedIn(owner.email);
    const created = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Tip jar',
      price_type: 'custom',
      price: '2.50',
      preset: '5',
      recurring_interval: '',
    });
    expect(created.status).toBe(303);
    const productId = created.location!.split('/products/')[1].split('?')[0];
    const before = (await api('GET', `/v1/products/${productId}`)).body;
    expect(before.prices).toHaveLength(1);
    expect(before.prices[0]).toMatchObject({ amount_type: 'custom', minimum_amount: 250, preset_amount: 500 });
    const page = await client.get(`${dash}/products/${productId}`);
    expect(page.text).toContain('Pay what you want, at least $2.50 (suggested $5.00)');

    const changed = await client.post(`${dash}/products/${productId}/prices`, {
      csrf_token: csrf,
      price_type: 'fixed',
      price: '12.34',
    });
    expect(changed.location).toBe(`${dash}/products/${productId}?notice=price-changed`);
    const after = (await api('GET', `/v1/products/${productId}`)).body;
    expect(after.prices).toHaveLength(1);
    expect(after.prices[0]).toMatchObject({ amount_type: 'fixed', price_amount: 1234, price_currency: 'usd' });
    expect(after.prices[0].id).not.toBe(before.prices[0].id);
    expect((await client.get(`${dash}/products/${productId}`)).text).toContain('$12.34');

    // A bad amount is the page's own 422, and removing the only price is the API's refusal: nothing changes.
    const bad = await client.post(`${dash}/products/${productId}/prices`, { csrf_token: csrf, price: '12.345' });
    expect(bad.status).toBe(422);
    const last = await client.post(`${dash}/products/${productId}/prices/${after.prices[0].id}/remove`, {
      csrf_token: csrf,
    });
    expect(last.status).toBe(422);
    expect(last.text).toContain('role="alert"');
    expect((await api('GET', `/v1/products/${productId}`)).body.prices).toEqual(after.prices);
  });

  it('creates a free product, attaches a benefit and detaches it, seen on products:get', async () => {
    const { client, csrf } = await signedIn(owner.email);
    const created = await client.post(`${dash}/products`, { csrf_token: csrf, name: 'Free tier', price_type: 'free' });
    const productId = created.location!.split('/products/')[1].split('?')[0];
    const product = (await api('GET', `/v1/products/${productId}`)).body;
    expect(product.prices[0]).toMatchObject({ amount_type: 'fixed', price_amount: 0 });
    const benefit = await createBenefit(stack.production, owner, {
      type: 'custom',
      description: 'Community access',
      properties: { note: 'Welcome' },
    });
    const page = await client.get(`${dash}/products/${productId}`);
    expect(page.text).toContain(`<option value="${benefit.id}">Community access (custom)</option>`);

    const attached = await client.post(`${dash}/products/${productId}/benefits/attach`, {
      csrf_token: csrf,
      benefit_id: benefit.id,
    });
    expect(attached.location).toBe(`${dash}/products/${productId}?notice=benefits-saved`);
    const read = (await api('GET', `/v1/products/${productId}`)).body;
    expect(read.benefits.map((b: { id: string }) => b.id)).toEqual([benefit.id]);
    expect((await client.get(`${dash}/products/${productId}`)).text).toContain(`data-benefit="${benefit.id}"`);

    await client.post(`${dash}/products/${productId}/benefits/detach`, { csrf_token: csrf, benefit_id: benefit.id });
    expect((await api('GET', `/v1/products/${productId}`)).body.benefits).toEqual([]);
  });
});

describe('discounts', () => {
  it('creates a repeating percentage discount with a code and deletes it, read back through the API', async () => {
    const { client, csrf } = await signedIn(owner.email);
    const created = await client.post(`${dash}/discounts`, {
      csrf_token: csrf,
      name: 'Launch week',
      type: 'percentage',
      value: '12.5',
      duration: 'repeating',
      duration_in_months: '3',
      code: 'LAUNCH',
      max_redemptions: '10',
    });
    expect(created.location).toBe(`${dash}/discounts?notice=discount-created`);
    const listed = (await api('GET', `/v1/discounts/?organization_id=${owner.organizationId}`)).body.items;
    const discount = listed.find((d: { name: string }) => d.name === 'Launch week');
    expect(discount).toMatchObject({
      type: 'percentage',
      basis_points: 1250,
      duration: 'repeating',
      duration_in_months: 3,
      code: 'LAUNCH',
      max_redemptions: 10,
    });
    const page = await client.get(`${dash}/discounts`);
    expect(page.text).toContain(`data-discount="${discount.id}"`);
    expect(page.text).toContain('12.5%');

    const deleted = await client.post(`${dash}/discounts/${discount.id}/delete`, { csrf_token: csrf });
    expect(deleted.location).toBe(`${dash}/discounts?notice=discount-deleted`);
    expect((await api('GET', `/v1/discounts/${discount.id}`)).status).toBe(404);
  });

  it('creates a fixed discount once, shown in money; an over-100% percentage is refused at the form', async () => {
    const { client, csrf } = await signedIn(owner.email);
    const fixed = await client.post(`${dash}/discounts`, {
      csrf_token: csrf,
      name: 'Five off',
      type: 'fixed',
      value: '5.00',
      duration: 'once',
    });
    expect(fixed.status).toBe(303);
    const listed = (await api('GET', `/v1/discounts/?organization_id=${owner.organizationId}`)).body.items;
    expect(listed.find((d: { name: string }) => d.name === 'Five off')).toMatchObject({
      type: 'fixed',
      amount: 500,
      currency: 'usd',
      duration: 'once',
      code: null,
    });
    expect((await client.get(`${dash}/discounts`)).text).toContain('$5.00');
    const count = listed.length;
    const tooMuch = await client.post(`${dash}/discounts`, {
      csrf_token: csrf,
      name: 'Everything free',
      type: 'percentage',
      value: '150',
      duration: 'once',
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.text).toContain('value="Everything free"');
    expect((await api('GET', `/v1/discounts/?organization_id=${owner.organizationId}`)).body.items).toHaveLength(count);
  });

  it('escapes a discount name with injected HTML', async () => {
    const res = await api('POST', '/v1/discounts/', {
      name: `Promo ${EVIL}`,
      type: 'percentage',
      basis_points: 1000,
      duration: 'once',
    });
    expect(res.status).toBe(201);
    const { client } = await signedIn(owner.email);
    const page = await client.get(`${dash}/discounts`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain('Promo &lt;img src=x onerror=alert(1)&gt;&quot;&#39;');
  });
});

describe('checkout links', () => {
  it('creates a link for two products whose URL opens the hosted checkout, then deletes it', async () => {
    const product = async (name: string, amount: number) =>
      (
        await api('POST', '/v1/products/', {
          name,
          prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
        })
      ).body.id as string;
    const [first, second] = [await product('Sticker pack', 400), await product('Poster', 1200)];
    const { client, csrf } = await signedIn(owner.email);
    expect((await client.get(`${dash}/checkout-links`)).text).toContain(`value="${second}"`);
    const created = await client.post(`${dash}/checkout-links`, {
      csrf_token: csrf,
      products: [first, second],
      label: 'Merch table',
      allow_discount_codes: 'on',
    });
    expect(created.location).toBe(`${dash}/checkout-links?notice=link-created`);
    const links = (await api('GET', `/v1/checkout-links/?organization_id=${owner.organizationId}`)).body.items;
    const link = links.find((l: { label: string }) => l.label === 'Merch table');
    expect(link.products.map((p: { id: string }) => p.id).sort()).toEqual([first, second].sort());

    const page = await client.get(`${dash}/checkout-links`);
    expect(page.text).toContain(`value="${link.url}" data-url`);
    // The shared URL is on the public address; the test server listens on another port. Following it
    // redirects to a fresh hosted checkout of both products.
    const buyer = new WebClient(base);
    const opened = await buyer.get(new URL(link.url).pathname);
    expect(opened.status).toBe(307);
    const checkout = await buyer.get(new URL(opened.location!).pathname);
    expect(checkout.status).toBe(200);
    expect(checkout.text).toContain('Sticker pack');

    const none = await client.post(`${dash}/checkout-links`, { csrf_token: csrf, label: 'Empty' });
    expect(none.status).toBe(422);
    const deleted = await client.post(`${dash}/checkout-links/${link.id}/delete`, { csrf_token: csrf });
    expect(deleted.location).toBe(`${dash}/checkout-links?notice=link-deleted`);
    expect((await api('GET', `/v1/checkout-links/${link.id}`)).status).toBe(404);
  });
});

describe('rules', () => {
  it('refuses a post without the CSRF token, changing nothing', async () => {
    const { client } = await signedIn(owner.email);
    const before = (await api('GET', `/v1/discounts/?organization_id=${owner.organizationId}`)).body.items;
    const res = await client.post(`${dash}/discounts`, {
      name: 'Sneaky',
      type: 'percentage',
      value: '50',
      duration: 'forever',
    });
    expect(res.status).toBe(403);
    expect((await api('GET', `/v1/discounts/?organization_id=${owner.organizationId}`)).body.items).toEqual(before);
  });

  it('lets a member create a discount, as the API does (its rule is the discounts:write scope, not a role)', async () => {
    const { client, csrf } = await signedIn(memberEmail);
    const res = await client.post(`${dash}/discounts`, {
      csrf_token: csrf,
      name: 'Member deal',
      type: 'percentage',
      value: '5',
      duration: 'forever',
    });
    expect(res.status).toBe(303);
    const listed = (await api('GET', `/v1/discounts/?organization_id=${owner.organizationId}`)).body.items;
    expect(listed.find((d: { name: string }) => d.name === 'Member deal')).toMatchObject({
      basis_points: 500,
      duration: 'forever',
    });
  });
});
