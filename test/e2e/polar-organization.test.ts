import { createPolar } from '@polar-sh/sdk-1/2026-04';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { oauthAccessToken } from './support/leaked-credentials.js';

/**
 * The `Polar-Organization` header (docs/principals.md#polar-organization) over plain HTTP, in the
 * sandbox (its test processor sells without a card network): a user who belongs to two organizations
 * acts for the one the header names, in lists, reads, creates and GraphQL; a token that cannot act for
 * it is 403 and changes nothing; an organization token may name its own organization only.
 */
let stack: TestStack;
let base: string;
/** Owns organization A (its tenant) and organization B. */
let alice: Tenant;
let orgB: { id: string; oat: string };
/** A stranger: organization C. */
let bob: Tenant;
/** Per organization, what was made in it. */
const made: Record<string, { product: string; customer: string; order: string }> = {};

const header = (organizationId: string) => ({ 'polar-organization': organizationId });
const asAlice = (method: string, path: string, organizationId?: string, body?: unknown) =>
  call(base, method, path, { token: alice.pat, body, headers: organizationId ? header(organizationId) : {} });
const ids = (res: { body: any }) => (res.body.items as { id: string }[]).map(i => i.id).sort();
/** The organizations a page's items belong to (an order names its organization through its customer). */
const organizationsOf = (res: { body: any }) =>
  [...new Set((res.body.items as any[]).map(i => i.organization_id ?? i.customer.organization_id))].sort();

/** A product, a customer and an order of that customer in the organization the OAT acts for. */
async function sell(oat: string, organizationId: string) {
  const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: oat, body });
  const product = await api('POST', '/v1/products/', {
    name: 'Poster',
    prices: [{ amount_type: 'fixed', price_amount: 900 }],
  });
  expect(product.status).toBe(201);
  const checkout = await api('POST', '/v1/checkouts/', {
    products: [product.body.id],
    customer_email: 'buyer@example.com',
  });
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  const [order] = (await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items;
  made[organizationId] = { product: product.body.id, customer: confirmed.body.customer_id, order: order.id };
}

beforeAll(async () => {
  stack = await sharedTestStack();
  const env = stack.sandbox;
  base = env.baseUrl;
  alice = await createTenant(env);
  const second = await env.admin.createOrganization(alice.email, 'Second shop', `second-${alice.slug}`);
  orgB = { id: second.id, oat: await env.admin.createOrganizationAccessToken(second.id, [...ALL_SCOPES]) };
  bob = await createTenant(env);
  await sell(alice.oat, alice.organizationId);
  await sell(orgB.oat, orgB.id);
  await sell(bob.oat, bob.organizationId);
}, 120_000);

describe('a user of two organizations', () => {
  it.each(['/v1/products/', '/v1/customers/', '/v1/orders/'])(
    'lists %s of both without the header, of the named one only with it',
    async path => {
      expect(organizationsOf(await asAlice('GET', path))).toEqual([alice.organizationId, orgB.id].sort());
      for (const organizationId of [alice.organizationId, orgB.id]) {
        const res = await asAlice('GET', path, organizationId);
        expect(res.status).toBe(200);
        expect(organizationsOf(res)).toEqual([organizationId]);
        expect(res.body.pagination.total_count).toBe(res.body.items.length);
      }
    },
  );

  it('lists its organizations: the named one only', async () => {
    expect(ids(await asAlice('GET', '/v1/organizations/'))).toEqual([alice.organizationId, orgB.id].sort());
    expect(ids(await asAlice('GET', '/v1/organizations/', orgB.id))).toEqual([orgB.id]);
    expect((await asAlice('GET', `/v1/organizations/${alice.organizationId}`, orgB.id)).status).toBe(404);
  });

  it("reads the other organization's objects as 404, as another tenant's, and its own as usual", async () => {
    const a = made[alice.organizationId];
    for (const path of [`/v1/products/${a.product}`, `/v1/customers/${a.customer}`, `/v1/orders/${a.order}`]) {
      expect((await asAlice('GET', path)).status).toBe(200);
      expect((await asAlice('GET', path, alice.organizationId)).status).toBe(200);
      const other = await asAlice('GET', path, orgB.id);
      expect([other.status, other.body]).toEqual([404, { error: 'ResourceNotFound', detail: 'Not found' }]);
    }
    const update = await asAlice('PATCH', `/v1/products/${a.product}`, orgB.id, { name: 'Renamed' });
    expect(update.status).toBe(404);
    expect((await asAlice('GET', `/v1/products/${a.product}`)).body.name).toBe('Poster');
  });

  it('creates in the named organization when the body names none, and refuses a body naming another', async () => {
    const body = { name: 'Sticker', prices: [{ amount_type: 'fixed', price_amount: 100 }] };
    const without = await asAlice('POST', '/v1/products/', undefined, body);
    expect(without.status).toBe(422); // a user of two organizations must say which
    const created = await asAlice('POST', '/v1/products/', orgB.id, body);
    expect(created.status).toBe(201);
    expect(created.body.organization_id).toBe(orgB.id);
    const same = await asAlice('POST', '/v1/customers/', orgB.id, {
      email: 'same@example.com',
      organization_id: orgB.id,
    });
    expect([same.status, same.body.organization_id]).toEqual([201, orgB.id]);

    const before = ids(await asAlice('GET', '/v1/products/?limit=100'));
    const other = await asAlice('POST', '/v1/products/', orgB.id, { ...body, organization_id: alice.organizationId });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: 'PolarRequestValidationError',
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'organization_id'],
          msg: `organization_id differs from the Polar-Organization header (${orgB.id}).`,
          input: alice.organizationId,
        },
      ],
    });
    expect(ids(await asAlice('GET', '/v1/products/?limit=100'))).toEqual(before);
  });

  it('answers 403 NotPermitted for an organization it is not a member of, on every kind of call, changing nothing', async () => {
    const detail = `You are not a member of organization ${bob.organizationId} (Polar-Organization).`;
    const before = ids(await asAlice('GET', '/v1/products/?limit=100'));
    for (const [method, path, body] of [
      ['GET', '/v1/products/', undefined],
      ['GET', `/v1/products/${made[bob.organizationId].product}`, undefined],
      ['GET', '/v1/organizations/', undefined],
      ['POST', '/v1/products/', { name: 'Intruder', prices: [{ amount_type: 'free' }] }],
      ['POST', '/graphql', { query: '{ __typename }' }],
    ] as const) {
      const res = await asAlice(method, path, bob.organizationId, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 403, { error: 'NotPermitted', detail }]);
    }
    expect(ids(await asAlice('GET', '/v1/products/?limit=100'))).toEqual(before);
    expect(ids(await call(base, 'GET', '/v1/products/', { token: bob.oat }))).toEqual([
      made[bob.organizationId].product,
    ]);
  });

  it('an OAuth user token: the named organization of its user, 403 for another', async () => {
    const token = await oauthAccessToken(stack.sandbox, alice.userId);
    const own = await call(base, 'GET', '/v1/organizations/', { token, headers: header(orgB.id) });
    expect(ids(own)).toEqual([orgB.id]);
    const other = await call(base, 'GET', '/v1/organizations/', { token, headers: header(bob.organizationId) });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('NotPermitted');
    expect(other.body.detail).toContain(bob.organizationId);
  });
});

describe('organization tokens', () => {
  it('ignore the header naming their own organization and refuse another with 403', async () => {
    const plain = await call(base, 'GET', '/v1/products/', { token: orgB.oat });
    const own = await call(base, 'GET', '/v1/products/', { token: orgB.oat, headers: header(orgB.id) });
    expect([own.status, ids(own)]).toEqual([200, ids(plain)]);
    const created = await call(base, 'POST', '/v1/customers/', {
      token: orgB.oat,
      headers: header(orgB.id),
      body: { email: 'oat@example.com' },
    });
    expect([created.status, created.body.organization_id]).toEqual([201, orgB.id]);
    for (const other of [alice.organizationId, bob.organizationId]) {
      const res = await call(base, 'GET', '/v1/products/', { token: orgB.oat, headers: header(other) });
      expect([res.status, res.body]).toEqual([
        403,
        {
          error: 'NotPermitted',
          detail: `This token acts for its own organization only, not ${other} (Polar-Organization).`,
        },
      ]);
    }
  });
});

describe('the value', () => {
  it('answers a value that is not a UUID with 422 at header.polar-organization, for any token that reads it', async () => {
    for (const token of [alice.pat, alice.oat]) {
      for (const value of ['acme', '', `${alice.organizationId}x`]) {
        const res = await call(base, 'GET', '/v1/products/', { token, headers: { 'polar-organization': value } });
        expect([value, res.status, res.body]).toEqual([
          value,
          422,
          {
            error: 'RequestValidationError',
            detail: [
              {
                type: 'uuid_parsing',
                loc: ['header', 'polar-organization'],
                msg: 'Input should be a valid UUID',
                input: value,
              },
            ],
          },
        ]);
      }
    }
  });

  it('reads an upper-case UUID as the same organization', async () => {
    const res = await asAlice('GET', '/v1/products/', orgB.id.toUpperCase());
    expect([res.status, organizationsOf(res)]).toEqual([200, [orgB.id]]);
  });

  it('is ignored for customer sessions and anonymous callers, as for the pages', async () => {
    const session = await call(base, 'POST', '/v1/customer-sessions/', {
      token: alice.oat,
      body: { customer_id: made[alice.organizationId].customer },
    });
    const portal = await call(base, 'GET', '/v1/customer-portal/customers/me', {
      token: session.body.token,
      headers: header(bob.organizationId),
    });
    expect([portal.status, portal.body.id]).toEqual([200, made[alice.organizationId].customer]);
    const anonymous = await call(base, 'GET', '/v1/products/', { headers: { 'polar-organization': 'acme' } });
    expect(anonymous.status).toBe(401);
    expect((await call(base, 'GET', '/healthz', { headers: { 'polar-organization': 'acme' } })).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('serves the named organization only', async () => {
    const query = '{ products(limit: 100) { items { id organizationId } } }';
    const graph = async (organizationId?: string) => {
      const res = await asAlice('POST', '/graphql', organizationId, { query });
      expect(res.body.errors).toBeUndefined();
      return [...new Set(res.body.data.products.items.map((p: any) => p.organizationId))].sort();
    };
    expect(await graph()).toEqual([alice.organizationId, orgB.id].sort());
    expect(await graph(orgB.id)).toEqual([orgB.id]);
  });
});

describe('SDK 1.0.1', () => {
  it('createPolar({ organizationId }) lists and creates in that organization', async () => {
    const polar = createPolar({ accessToken: alice.pat, baseUrl: base, organizationId: orgB.id });
    const page = await polar.products.list({ limit: 100 });
    expect([...new Set(page.items.map(p => p.organization_id))]).toEqual([orgB.id]);
    const created = await polar.products.create({
      name: 'From the SDK',
      prices: [{ amount_type: 'fixed', price_amount: 500 }],
    } as Parameters<typeof polar.products.create>[0]);
    expect(created.organization_id).toBe(orgB.id);
  });
});

describe('the edge', () => {
  it('allows the header across origins and documents it on every API operation with its 403', async () => {
    const preflight = await fetch(`${base}/v1/products/`, { method: 'OPTIONS' });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Polar-Organization');
    const doc = (await call(base, 'GET', '/openapi.json')).body;
    expect(doc.components.parameters.PolarOrganization).toMatchObject({ name: 'Polar-Organization', in: 'header' });
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        // The route table's operations (the documented API) carry their callers; OAuth, probes and
        // inbound webhooks do not read the header.
        if (!operation['x-polar-allowed-subjects']) continue;
        const refs = (operation.parameters ?? []).map((p: any) => p.$ref);
        expect([method, path, refs]).toEqual([
          method,
          path,
          expect.arrayContaining(['#/components/parameters/PolarOrganization']),
        ]);
        // Refused before routing, so on every route, whoever it serves.
        expect([method, path, Object.keys(operation.responses)]).toEqual([
          method,
          path,
          expect.arrayContaining(['403', '422']),
        ]);
      }
    }
  });
});
