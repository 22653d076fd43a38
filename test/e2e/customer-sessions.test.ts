import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../kit/clock.js';
import { hashToken } from '../../kit/tokens.js';
import { call, createTenant, TEST_SECRET, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Customer sessions (`POST /v1/customer-sessions/`) and the token they yield: it authenticates the
 * Customer Portal API for that one customer and nothing else, for one hour.
 */
const START = new Date('2026-11-21T10:00:00.000Z');
const clock = new ManualClock(START);
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;
let customer: any;
let otherCustomer: any;

beforeAll(async () => {
  stack = await sharedTestStack(clock);
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
  customer = (
    await call(base, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `cs-${randomUUID()}@example.com`, name: 'Portal user', external_id: `ext-${randomUUID()}` },
    })
  ).body;
  otherCustomer = (
    await call(base, 'POST', '/v1/customers/', { token: alice.oat, body: { email: `cs-${randomUUID()}@example.com` } })
  ).body;
  expect(customer.id).toBeDefined();
});

async function session(body: Record<string, unknown>, token = alice.oat) {
  return call(base, 'POST', '/v1/customer-sessions/', { token, body });
}

describe('customer-sessions:create', () => {
  it('creates a one-hour polar_cst_ session by customer_id with the CustomerSession shape', async () => {
    const res = await session({ customer_id: customer.id, return_url: 'https://shop.example/account' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'created_at',
        'customer',
        'customer_id',
        'customer_portal_url',
        'expires_at',
        'id',
        'modified_at',
        'return_url',
        'token',
      ].sort(),
    );
    expect(res.body.token).toMatch(/^polar_cst_[0-9A-Za-z]{43}$/);
    expect(res.body).toMatchObject({
      customer_id: customer.id,
      return_url: 'https://shop.example/account',
      modified_at: null,
    });
    expect(res.body.customer).toEqual(customer);
    expect(new Date(res.body.expires_at).getTime() - new Date(res.body.created_at).getTime()).toBe(60 * 60 * 1000);
    const url = new URL(res.body.customer_portal_url);
    expect(`${url.origin}${url.pathname}`).toBe('http://127.0.0.1:8000/portal');
    expect(url.searchParams.get('customer_session_token')).toBe(res.body.token);
    expect(url.searchParams.get('email')).toBe(customer.email);
  });

  it('stores only the hash of the token', async () => {
    const res = await session({ customer_id: customer.id });
    const rows = await stack.production.environment.billing.orm.em
      .fork()
      .getConnection()
      .execute('select token_hash from billing.customer_sessions where id = ?', [res.body.id]);
    expect(rows[0].token_hash).toBe(hashToken(res.body.token, TEST_SECRET));
    expect(JSON.stringify(rows)).not.toContain(res.body.token);
  });

  it('accepts external_customer_id and the deprecated customer_external_id', async () => {
    const byExternal = await session({ external_customer_id: customer.external_id });
    expect(byExternal.status).toBe(201);
    expect(byExternal.body.customer_id).toBe(customer.id);
    const deprecated = await session({ customer_external_id: customer.external_id });
    expect(deprecated.status).toBe(201);
    expect(deprecated.body.customer_id).toBe(customer.id);
  });

  it('an unknown or foreign customer is 422 "Customer does not exist."', async () => {
    const unknown = await session({ customer_id: randomUUID() });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({
      error: 'PolarRequestValidationError',
      detail: [{ type: 'value_error', loc: ['body', 'customer_id'], msg: 'Customer does not exist.' }],
    });
    const foreign = await session({ customer_id: customer.id }, bob.oat);
    expect(foreign.status).toBe(422);
    const external = await session({ external_customer_id: 'nobody' });
    expect(external.body.detail[0].loc).toEqual(['body', 'external_customer_id']);
    const neither = await session({});
    expect(neither.status).toBe(422);
    expect(neither.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'customer_id'] });
  });

  it('needs customer_sessions:write and a user or organization', async () => {
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'customers:read',
      'customers:write',
    ]);
    const res = await session({ customer_id: customer.id }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    const byPat = await call(base, 'POST', '/v1/customer-sessions/', {
      token: alice.pat,
      body: { customer_id: customer.id },
    });
    expect(byPat.status).toBe(201);
    const cst = (await session({ customer_id: customer.id })).body.token;
    const byCustomer = await session({ customer_id: customer.id }, cst);
    expect(byCustomer.status).toBe(401);
    expect(byCustomer.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
  });
});

describe('the customer session token', () => {
  it('reads the customer portal: GET /v1/customer-portal/customers/me', async () => {
    const { token } = (await session({ customer_id: customer.id })).body;
    const res = await call(base, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created_at: customer.created_at,
      modified_at: null,
      id: customer.id,
      email: customer.email,
      email_verified: false,
      name: 'Portal user',
      billing_name: null,
      billing_address: null,
      tax_id: null,
      oauth_accounts: {},
      default_payment_method_id: null,
      type: 'individual',
    });
    const other = (await session({ customer_id: otherCustomer.id })).body.token;
    expect((await call(base, 'GET', '/v1/customer-portal/customers/me', { token: other })).body.id).toBe(
      otherCustomer.id,
    );
  });

  it('is 401 Unauthorized on the Core API', async () => {
    const { token } = (await session({ customer_id: customer.id })).body;
    for (const [method, path] of [
      ['GET', '/v1/organizations/'],
      ['GET', '/v1/customers/'],
      ['GET', `/v1/customers/${customer.id}`],
      ['GET', `/v1/organizations/${alice.organizationId}`],
      ['GET', '/v1/products/'],
      ['GET', '/v1/discounts/'],
      ['GET', '/v1/subscriptions/'],
    ]) {
      const res = await call(base, method, path, { token });
      expect([path, res.status]).toEqual([path, 401]);
      expect(res.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    }
    const create = await call(base, 'POST', '/v1/customers/', { token, body: { email: 'x@example.com' } });
    expect(create.status).toBe(401);
  });

  it("cannot reach another customer's data through GraphQL either", async () => {
    const { token } = (await session({ customer_id: customer.id })).body;
    const res = await call(base, 'POST', '/graphql', {
      token,
      body: { query: `{ customer(id: "${otherCustomer.id}") { id } }` },
    });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('Unauthorized');
    // The Core API's root fields refuse the caller type itself, before any repository is asked.
    for (const field of ['products', 'discounts', 'subscriptions', 'customers']) {
      const list = await call(base, 'POST', '/graphql', { token, body: { query: `{ ${field} { items { id } } }` } });
      expect([field, list.body.data, list.body.errors[0].extensions.code]).toEqual([field, null, 'Unauthorized']);
    }
    const me = await call(base, 'POST', '/graphql', { token, body: { query: '{ customerPortalMe { id email } }' } });
    expect(me.body.data.customerPortalMe).toEqual({ id: customer.id, email: customer.email });
  });

  it('an organization token is 401 on the portal', async () => {
    const res = await call(base, 'GET', '/v1/customer-portal/customers/me', { token: alice.oat });
    expect(res.status).toBe(401);
    expect((await call(base, 'GET', '/v1/customer-portal/customers/me')).status).toBe(401);
  });

  it('an unknown or malformed cst token is invalid_token', async () => {
    const { token } = (await session({ customer_id: customer.id })).body;
    const tampered = `${token.slice(0, -7)}${token.at(-7) === 'A' ? 'B' : 'A'}${token.slice(-6)}`;
    for (const bad of [tampered, 'polar_cst_short', `polar_cst_${'a'.repeat(43)}`]) {
      const res = await call(base, 'GET', '/v1/customer-portal/customers/me', { token: bad });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_token');
    }
  });

  it('a session of a deleted customer stops working', async () => {
    const doomed = (
      await call(base, 'POST', '/v1/customers/', {
        token: alice.oat,
        body: { email: `gone-${randomUUID()}@example.com` },
      })
    ).body;
    const { token } = (await session({ customer_id: doomed.id })).body;
    expect((await call(base, 'DELETE', `/v1/customers/${doomed.id}`, { token: alice.oat })).status).toBe(204);
    clock.advance(6_000); // past the 5 s principal cache
    const res = await call(base, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
  });

  it('expires after one hour', async () => {
    const { token } = (await session({ customer_id: customer.id })).body;
    expect((await call(base, 'GET', '/v1/customer-portal/customers/me', { token })).status).toBe(200);
    clock.advance(59 * 60 * 1000);
    expect((await call(base, 'GET', '/v1/customer-portal/customers/me', { token })).status).toBe(200);
    clock.advance(61 * 1000);
    const expired = await call(base, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('invalid_token');
    expect(expired.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('is invalid_token in the sandbox', async () => {
    const { token } = (await session({ customer_id: customer.id })).body;
    const res = await call(stack.sandbox.baseUrl, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
  });
});
