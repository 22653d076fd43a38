import { randomUUID } from 'node:crypto';
import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { buyWithBenefits, createBenefit, uploadFile } from '../support/portal-benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { createCustomer } from './support/license-keys.js';

/**
 * `GET /v1/benefits/{id}/files` (docs/license-keys-and-files.md#download-statistics): a downloadables
 * benefit's files with the downloads its customers made through their portal links.
 */
let stack: TestStack;
let base: string;
let shop: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
});

/** The customer's portal links, keyed by file name (the public URL's path on the test server's port). */
async function portalLinks(customerId: string): Promise<Record<string, string>> {
  const session = await call(base, 'POST', '/v1/customer-sessions/', {
    token: shop.oat,
    body: { customer_id: customerId },
  });
  const list = await call(base, 'GET', '/v1/customer-portal/downloadables/', { token: session.body.token });
  return Object.fromEntries(
    list.body.items.map((d: { file: { name: string; download: { url: string } } }) => {
      const url = new URL(d.file.download.url);
      return [d.file.name, `${base}${url.pathname}${url.search}`];
    }),
  );
}

const download = async (url: string) => {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
};

describe('GET /v1/benefits/{id}/files', () => {
  it("lists the active files in the benefit's order with downloaders and downloads (SDK 1.0.1)", async () => {
    const manual = await uploadFile(stack.production, shop, 'manual.txt', Buffer.from('read me'));
    const extras = await uploadFile(stack.production, shop, 'extras.txt', Buffer.from('more'));
    const old = await uploadFile(stack.production, shop, 'old.txt', Buffer.from('old'));
    const benefit = await createBenefit(stack.production, shop, {
      type: 'downloadables',
      description: 'Files',
      properties: { files: [manual.id, extras.id, old.id], archived: { [old.id]: true } },
    });
    const ann = await createCustomer(stack.production, shop);
    const bob = await createCustomer(stack.production, shop);
    await buyWithBenefits(stack.production, shop, ann, [benefit.id]);
    await buyWithBenefits(stack.production, shop, bob, [benefit.id]);

    const annLinks = await portalLinks(ann);
    expect(await download(annLinks['manual.txt'])).toBe(200);
    expect(await download(annLinks['manual.txt'])).toBe(200);
    expect(await download((await portalLinks(bob))['manual.txt'])).toBe(200);
    // A link whose grant was changed is not a link: refused, and nothing is counted.
    const forged = annLinks['extras.txt'].replace(/grant=[^&]+/, `grant=${randomUUID()}`);
    expect(await download(forged)).toBe(403);

    const page = await createPolar({ accessToken: shop.oat, baseUrl: base }).benefits.files(benefit.id);
    expect(page.pagination).toEqual({ total_count: 2, max_page: 1 });
    expect(page.items.map(f => [f.name, f.downloaders, f.downloads])).toEqual([
      ['manual.txt', 2, 3],
      ['extras.txt', 0, 0],
    ]);
    expect(page.items[0]).toMatchObject({
      id: manual.id,
      organization_id: shop.organizationId,
      service: 'downloadable',
      is_uploaded: true,
      size: 7,
      size_readable: '7.0 B',
      flagged_malicious_at: null,
    });

    const second = await call(base, 'GET', `/v1/benefits/${benefit.id}/files?limit=1&page=2`, { token: shop.oat });
    expect(second.status).toBe(200);
    expect(second.body.items.map((f: { name: string }) => f.name)).toEqual(['extras.txt']);
    expect(second.body.pagination).toEqual({ total_count: 2, max_page: 2 });
    const beyond = await call(base, 'GET', `/v1/benefits/${benefit.id}/files?page=5`, { token: shop.oat });
    expect(beyond.body).toEqual({ items: [], pagination: { total_count: 2, max_page: 1 } });
  });

  it('answers 404 for another type, another organization or no benefit; checks scope and input', async () => {
    const custom = await createBenefit(stack.production, shop, {
      type: 'custom',
      description: 'A note',
      properties: { note: 'hi' },
    });
    const notFound = { error: 'ResourceNotFound', detail: 'Not found' };
    const other = await call(base, 'GET', `/v1/benefits/${custom.id}/files`, { token: shop.oat });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(notFound);
    const gone = await uploadFile(stack.production, shop, 'gone.txt', Buffer.from('gone'));
    const empty = await createBenefit(stack.production, shop, {
      type: 'downloadables',
      description: 'Later',
      properties: { files: [gone.id] },
    });
    // A deleted file drops out of the list.
    expect((await call(base, 'DELETE', `/v1/files/${gone.id}`, { token: shop.oat })).status).toBe(204);
    const stranger = await createTenant(stack.production);
    const foreign = await call(base, 'GET', `/v1/benefits/${empty.id}/files`, { token: stranger.oat });
    expect(foreign.status).toBe(404);
    const absent = await call(base, 'GET', `/v1/benefits/${randomUUID()}/files`, { token: shop.oat });
    expect(absent.body).toEqual(notFound);
    const none = await call(base, 'GET', `/v1/benefits/${empty.id}/files`, { token: shop.oat });
    expect(none.body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });

    const bad = await call(base, 'GET', '/v1/benefits/nope/files', { token: shop.oat });
    expect(bad.status).toBe(422);
    const badPage = await call(base, 'GET', `/v1/benefits/${empty.id}/files?page=0`, { token: shop.oat });
    expect(badPage.status).toBe(422);
    const reader = await stack.production.admin.createOrganizationAccessToken(shop.organizationId, ['files:read']);
    const refused = await call(base, 'GET', `/v1/benefits/${empty.id}/files`, { token: reader });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
  });
});
