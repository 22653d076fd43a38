import { BillingFixtures } from '../support/subscription-fixtures.js';
import { buyWithBenefits, createBenefit, untilGranted, uploadFile } from '../support/portal-benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { csrfTokenOf, WebClient } from './client.js';

/**
 * The portal's Benefits tab over plain HTTP, and the grants route it reads
 * (`GET /v1/customer-portal/benefit-grants/`): license keys, files with their signed download links,
 * custom notes and other benefits by description; a revoked grant is not shown.
 */
let stack: TestStack;
let base: string;
let shop: Tenant;
let fixtures: BillingFixtures;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production, { name: 'File Shop' });
  fixtures = new BillingFixtures(stack.production);
});

async function sessionOf(customerId: string): Promise<string> {
  const res = await call(base, 'POST', '/v1/customer-sessions/', {
    token: shop.oat,
    body: { customer_id: customerId },
  });
  expect(res.status).toBe(201);
  return res.body.token;
}

const text = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the Benefits tab', () => {
  it('lists keys, files (name, size, a working download link), notes and other benefits; not revoked ones', async () => {
    const env = stack.production;
    const buyer = await fixtures.customer(shop.organizationId, { name: 'Benefit Buyer' });
    const bytes = Buffer.from('The manual of the product, version 2.\n'.repeat(40));
    const file = await uploadFile(env, shop, 'manual <v2>.txt', bytes);
    const files = await createBenefit(env, shop, {
      type: 'downloadables',
      description: 'Manuals',
      properties: { files: [file.id] },
    });
    const note = await createBenefit(env, shop, {
      type: 'custom',
      description: 'Priority support',
      properties: { note: 'Write to support@shop.example & mention <your order>.' },
    });
    const flag = await createBenefit(env, shop, { type: 'feature_flag', description: 'Beta features', properties: {} });
    const gone = await createBenefit(env, shop, {
      type: 'custom',
      description: 'Launch webinar',
      properties: { note: 'Gone soon' },
    });
    const keys = await createBenefit(env, shop, {
      type: 'license_keys',
      description: 'App key',
      properties: { prefix: 'SHOP' },
    });
    await buyWithBenefits(env, shop, buyer.id, [files.id, note.id, flag.id, gone.id, keys.id]);
    // The seller deletes one benefit: its grant is revoked.
    expect((await call(base, 'DELETE', `/v1/benefits/${gone.id}`, { token: shop.oat })).status).toBe(204);
    await env.environment.billing.jobs.drain();
    const token = await sessionOf(buyer.id);

    // The API: the customer's own grants held now (Polar's readable grants leave revoked ones out).
    const listed = await call(base, 'GET', '/v1/customer-portal/benefit-grants/', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(4);
    expect(listed.body.items.find((g: any) => g.benefit_id === gone.id)).toBeUndefined();
    expect(listed.body.items.every((g: any) => g.is_granted && !g.is_revoked && g.customer_id === buyer.id)).toBe(true);
    expect(listed.body.items[0].customer).toMatchObject({ id: buyer.id, oauth_accounts: {} });
    expect(listed.body.items[0].customer).not.toHaveProperty('metadata');
    const custom = await call(base, 'GET', '/v1/customer-portal/benefit-grants/?type=custom', { token });
    expect(custom.body.items.map((g: any) => g.benefit_id)).toEqual([note.id]);
    const other = await fixtures.customer(shop.organizationId);
    const theirs = await call(base, 'GET', '/v1/customer-portal/benefit-grants/', { token: await sessionOf(other.id) });
    expect(theirs.body.items).toEqual([]);
    expect((await call(base, 'GET', '/v1/customer-portal/benefit-grants/', { token: shop.oat })).status).toBe(401);

    // The page.
    const client = new WebClient(base);
    expect((await client.get(`/portal?customer_session_token=${token}`)).status).toBe(303);
    const page = await client.get(`/portal/${shop.slug}/benefits`);
    expect(page.status).toBe(200);
    const words = text(page.text);
    expect(words).toContain('License keys');
    expect(page.text).toMatch(/aria-label="License key">SHOP-/);
    expect(words).toContain('Files');
    expect(page.text).toContain('manual &lt;v2&gt;.txt');
    expect(words).toContain('Priority support');
    expect(page.text).toContain('Write to support@shop.example &amp; mention &lt;your order&gt;.');
    expect(words).toContain('Beta features');
    expect(words).not.toContain('Launch webinar');
    expect(words).not.toContain('Gone soon');

    // The download link is a path of this site (the signed link of files/), and it serves the bytes.
    const href = /<a href="([^"]+)" download="[^"]*" aria-label="Download manual &lt;v2&gt;.txt">/.exec(page.text)?.[1];
    expect(href).toMatch(/^\/storage\/files\/[0-9a-f-]+\?expires=/);
    const download = await fetch(`${base}${href!.replace(/&amp;/g, '&')}`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('a customer without benefits is told so', async () => {
    const nobody = await fixtures.customer(shop.organizationId);
    await untilGranted(stack.production, shop, nobody.id, 0);
    const client = new WebClient(base);
    await client.get(`/portal?customer_session_token=${await sessionOf(nobody.id)}`);
    const page = await client.get(`/portal/${shop.slug}/benefits`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('You have no benefits.');
  });

  it("lists a key's activations (label, date) and deactivates one with its button", async () => {
    const env = stack.production;
    const buyer = await fixtures.customer(shop.organizationId, { name: 'Key Holder' });
    const benefit = await createBenefit(env, shop, {
      type: 'license_keys',
      description: 'Desktop app',
      properties: { prefix: 'DESK', activations: { limit: 3, enable_customer_admin: true } },
    });
    await buyWithBenefits(env, shop, buyer.id, [benefit.id], 'Desktop bundle');
    const token = await sessionOf(buyer.id);
    const [key] = (await call(base, 'GET', '/v1/customer-portal/license-keys/', { token })).body.items;
    const activate = (label: string) =>
      call(base, 'POST', '/v1/customer-portal/license-keys/activate', {
        body: { key: key.key, organization_id: shop.organizationId, label },
      });
    const laptop = (await activate('Work <laptop>')).body;
    const desktop = (await activate('Home desktop')).body;
    expect(desktop.label).toBe('Home desktop');

    const client = new WebClient(base);
    await client.get(`/portal?customer_session_token=${token}`);
    const page = await client.get(`/portal/${shop.slug}/benefits`);
    expect(page.status).toBe(200);
    const words = text(page.text);
    expect(words).toContain('up to 3 activations');
    expect(page.text).toContain('Work &lt;laptop&gt;');
    expect(words).toContain('Home desktop');
    expect(page.text).toMatch(
      new RegExp(`<time datetime="${laptop.created_at}">[A-Z][a-z]{2} \\d{1,2}, \\d{4}</time>`),
    );
    expect(page.text).toContain('aria-label="Deactivate Home desktop">Deactivate</button>');

    // Without the form's CSRF token nothing happens; with it, the activation is gone and its slot free.
    const form = { license_key_id: key.id, activation_id: desktop.id };
    expect((await client.post(`/portal/${shop.slug}/benefits/deactivate`, form)).status).toBe(403);
    const done = await client.post(`/portal/${shop.slug}/benefits/deactivate`, {
      ...form,
      csrf_token: csrfTokenOf(page.text),
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/portal/${shop.slug}/benefits?done=deactivated`);
    const after = await client.get(done.location!);
    expect(after.text).toContain('The activation was removed');
    expect(after.text).not.toContain('Home desktop');
    expect(after.text).toContain('Work &lt;laptop&gt;');
    const held = await call(base, 'GET', `/v1/customer-portal/license-keys/${key.id}`, { token });
    expect(held.body.activations.map((a: any) => a.id)).toEqual([laptop.id]);

    // Another customer's portal cannot reach this key.
    const stranger = await fixtures.customer(shop.organizationId);
    const other = new WebClient(base);
    await other.get(`/portal?customer_session_token=${await sessionOf(stranger.id)}`);
    const theirs = await other.get(`/portal/${shop.slug}/benefits`);
    const refused = await other.post(`/portal/${shop.slug}/benefits/deactivate`, {
      license_key_id: key.id,
      activation_id: laptop.id,
      csrf_token: csrfTokenOf(theirs.text),
    });
    expect(refused.status).toBe(404);
    const still = await call(base, 'GET', `/v1/customer-portal/license-keys/${key.id}`, { token });
    expect(still.body.activations).toHaveLength(1);
  });
});
