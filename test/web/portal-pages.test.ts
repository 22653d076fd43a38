import { randomUUID } from 'node:crypto';
import { html } from '../../rest-adapter/web-kit/html.js';
import { portalSections, registerPortalSection } from '../../rest-adapter/web/portal/portal-views.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { csrfTokenOf, WebClient } from './client.js';

/**
 * The customer portal pages over plain HTTP (rest-adapter/web/portal): the session link, the section
 * registry (a section appears when its API route is served), CSRF, and pages a customer of another seller
 * or no session cannot use.
 */
// A feature that arrives later registers its section; this one stands for it (registered before the app is
// built, and taken out at the end: the registry is the worker's, which later files share).
const unregister = [
  registerPortalSection({
    id: 'test-extra',
    label: 'Extra things',
    path: 'extra',
    available: ctx => ctx.api.has('customer_portal:customers:get'),
    render: async ctx => html`<h1>Extra for ${(await ctx.call('customer_portal:customers:get')).email}</h1>`,
  }),
  registerPortalSection({
    id: 'test-missing',
    label: 'Missing',
    path: 'missing',
    available: ctx => ctx.api.has('customer_portal:not-served'),
    render: async () => html``,
  }),
];

let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;
let email: string;
let token: string;

beforeAll(async () => {
  stack = await startTestStack('portal_pages');
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production, { name: 'Shop <One>' });
  other = await createTenant(stack.production);
  email = `pages-${randomUUID()}@example.com`;
  const customer = await new BillingFixtures(stack.production).customer(shop.organizationId, { email });
  token = (await call(base, 'POST', '/v1/customer-sessions/', { token: shop.oat, body: { customer_id: customer.id } }))
    .body.token;
});
afterAll(async () => {
  for (const undo of unregister) undo();
  await stack?.close();
});

async function signedIn(): Promise<WebClient> {
  const client = new WebClient(base);
  const opened = await client.get(`/portal?customer_session_token=${token}&email=${encodeURIComponent(email)}`);
  expect(opened.status).toBe(303);
  expect(opened.location).toBe(`/portal/${shop.slug}`);
  return client;
}

describe('customer portal pages', () => {
  it('lists the available sections, escapes the seller name, and shows a registered section', async () => {
    const client = await signedIn();
    const home = await client.get(`/portal/${shop.slug}`);
    expect(home.status).toBe(303);
    expect(home.location).toBe(`/portal/${shop.slug}/subscriptions`);
    const page = await client.get(`/portal/${shop.slug}/subscriptions`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Shop &lt;One&gt;');
    expect(page.text).not.toContain('<script');
    for (const tab of ['Subscriptions', 'Orders', 'Benefits', 'Payment methods', 'Billing details', 'Extra things'])
      expect(page.text).toContain(`>${tab}</a>`);
    const keys = await client.get(`/portal/${shop.slug}/benefits`);
    expect(keys.status).toBe(200);
    expect(keys.text).toContain('You have no benefits.');
    const methods = await client.get(`/portal/${shop.slug}/payment-methods`);
    expect(methods.status).toBe(200);
    expect(methods.text).toContain('No saved payment method.');
    // A section whose route this server does not serve is neither a tab nor a page.
    expect(page.text).not.toContain('>Missing</a>');
    expect((await client.get(`/portal/${shop.slug}/missing`)).status).toBe(404);
    const extra = await client.get(`/portal/${shop.slug}/extra`);
    expect(extra.status).toBe(200);
    expect(extra.text).toContain(`<h1>Extra for ${email}</h1>`);
  });

  it("is the seller's portal only: another seller's slug asks to sign in, an unknown slug is 404", async () => {
    const client = await signedIn();
    const elsewhere = await client.get(`/portal/${other.slug}/subscriptions`);
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.location).toContain(`/portal/${other.slug}/request`);
    expect((await client.get('/portal/no-such-seller/subscriptions')).status).toBe(404);
    const wrongLink = await client.get(`/portal/${other.slug}/orders?customer_session_token=${token}`);
    expect(wrongLink.status).toBe(400);
    expect(wrongLink.text).toContain('This link has expired.');
  });

  it('refuses a form post without its CSRF token and changes nothing', async () => {
    const client = await signedIn();
    const res = await client.post(`/portal/${shop.slug}/billing`, { billing_name: 'Forged' });
    expect(res.status).toBe(403);
    const me = await call(base, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(me.body.billing_name).toBeNull();
    const csrf = csrfTokenOf((await client.get(`/portal/${shop.slug}/billing`)).text);
    const ok = await client.post(`/portal/${shop.slug}/billing`, { billing_name: 'Real', csrf_token: csrf });
    expect(ok.status).toBe(303);
    expect((await call(base, 'GET', '/v1/customer-portal/customers/me', { token })).body.billing_name).toBe('Real');
  });

  it('an unknown or expired link says so, and the sign-in page names the seller', async () => {
    const client = new WebClient(base);
    expect((await client.get('/portal?customer_session_token=polar_cst_nope')).status).toBe(404);
    const signIn = await client.get(`/portal/${shop.slug}/request`);
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain('buy from Shop &lt;One&gt;');
    expect(signIn.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe('the Orders tab', () => {
  it('shows a partially refunded order with its refunded amount and status', async () => {
    const sandbox = stack.sandbox.baseUrl;
    const seller = await createTenant(stack.sandbox, { name: 'Refund Shop' });
    const product = await call(sandbox, 'POST', '/v1/products/', {
      token: seller.oat,
      body: { name: 'Lifetime licence', prices: [{ amount_type: 'fixed', price_amount: 5000, price_currency: 'usd' }] },
    });
    expect(product.status).toBe(201);
    const buyer = `refund-${randomUUID()}@example.com`;
    const checkout = await call(sandbox, 'POST', '/v1/checkouts/', {
      token: seller.oat,
      body: { products: [product.body.id], customer_email: buyer },
    });
    const confirmed = await call(sandbox, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa', customer_name: 'Ada Buyer' },
    });
    expect(confirmed.status).toBe(200);
    const orders = await call(sandbox, 'GET', `/v1/orders/?checkout_id=${checkout.body.id}`, { token: seller.oat });
    const order = orders.body.items[0];
    const refund = await call(sandbox, 'POST', '/v1/refunds/', {
      token: seller.oat,
      body: { order_id: order.id, reason: 'customer_request', amount: 2000 },
    });
    expect(refund.status).toBe(201);
    const session = await call(sandbox, 'POST', '/v1/customer-sessions/', {
      token: seller.oat,
      body: { customer_id: order.customer_id },
    });

    const client = new WebClient(sandbox);
    expect((await client.get(`/portal?customer_session_token=${session.body.token}`)).status).toBe(303);
    const page = await client.get(`/portal/${seller.slug}/orders`);
    expect(page.status).toBe(200);
    const row = /<tr><td><time[\s\S]*?<\/tr>/.exec(page.text)?.[0] ?? '';
    const words = row.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(words).toContain('$50.00');
    expect(words).toContain('$20.00 refunded');
    expect(words).toContain('Partially refunded');
  });
});

describe('the section registry', () => {
  it('takes a registered section out again, and puts back the one it replaced', () => {
    const ids = () => portalSections().map(s => s.id);
    const extra = portalSections().find(s => s.id === 'test-extra')!;
    const undoNew = registerPortalSection({ ...extra, id: 'test-later', label: 'Later' }, { before: 'test-extra' });
    const undoReplacement = registerPortalSection({ ...extra, label: 'Replaced' });
    try {
      expect(ids().indexOf('test-later')).toBe(ids().indexOf('test-extra') - 1);
      expect(portalSections().find(s => s.id === 'test-extra')!.label).toBe('Replaced');
    } finally {
      undoReplacement();
      undoNew();
    }
    expect(ids()).not.toContain('test-later');
    expect(portalSections().find(s => s.id === 'test-extra')).toBe(extra);
  });
});
