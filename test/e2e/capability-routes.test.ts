import { systemClock } from '../../kit/clock.js';
import { sessionCookieName } from '../../rest-adapter/web-kit/cookies.js';
import { InProcessWebIdentity } from '../../subgraphs/identity/web/web.provider.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Capability routes answer by the secret or the slug alone: a checkout by its client secret (get,
 * update, confirm) and a customer portal by its organization's slug. Whoever calls with whatever
 * credential of another organization (its access token, a member's personal token or web session, a
 * session of one of its customers) gets the answer an anonymous caller gets, and so does a session
 * cookie that does not even decode.
 */
let stack: TestStack;
let base: string;
let seller: Tenant;
let productId: string;
const credentials: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  stack = await sharedTestStack();
  const env = stack.sandbox;
  base = env.baseUrl;
  seller = await createTenant(env);
  const other = await createTenant(env);
  const product = await call(base, 'POST', '/v1/products/', {
    token: seller.oat,
    body: { name: 'Monthly plan', recurring_interval: 'month', prices: [{ amount_type: 'fixed', price_amount: 900 }] },
  });
  expect(product.status).toBe(201);
  productId = product.body.id;
  const customer = await call(base, 'POST', '/v1/customers/', {
    token: other.oat,
    body: { email: 'their-customer@example.com' },
  });
  const session = await call(base, 'POST', '/v1/customer-sessions/', {
    token: other.oat,
    body: { customer_id: customer.body.id },
  });
  expect(session.status).toBe(201);
  const web = new InProcessWebIdentity(env.environment.identity.orm, env.environment.identity.services, systemClock);
  const signedIn = await web.signIn(other.email, 'correct horse battery', null);
  const cookie = sessionCookieName('sandbox');
  Object.assign(credentials, {
    "another organization's access token": { authorization: `Bearer ${other.oat}` },
    "another organization's member's personal token": { authorization: `Bearer ${other.pat}` },
    "another organization's customer's session": { authorization: `Bearer ${session.body.token}` },
    // As the browser sends it from a page of this site: a cookie-authenticated write needs a same-origin
    // Origin (docs/web-pages.md#cookie-authenticated-api-requests).
    "another organization's member's web session": { cookie: `${cookie}=${signedIn!.token}`, origin: base },
    'a session cookie that does not decode': { cookie: `${cookie}=%zz` },
  });
}, 120_000);

const openCheckout = async () => {
  const res = await call(base, 'POST', '/v1/checkouts/', { token: seller.oat, body: { products: [productId] } });
  expect(res.status).toBe(201);
  return res.body.client_secret as string;
};
const anonymousRead = async (secret: string) => {
  const res = await call(base, 'GET', `/v1/checkouts/client/${secret}`);
  expect(res.status).toBe(200);
  return res.body;
};
/** The headers of a credential kind (a kind not set up would silently be an anonymous call). */
const headersOf = (kind: string) => {
  if (!credentials[kind]) throw new Error(`no credential "${kind}"`);
  return credentials[kind];
};

describe.each([
  "another organization's access token",
  "another organization's member's personal token",
  "another organization's customer's session",
  "another organization's member's web session",
  'a session cookie that does not decode',
])('with %s', kind => {
  it('GET /v1/checkouts/client/{client_secret} answers as to an anonymous caller', async () => {
    const secret = await openCheckout();
    const res = await call(base, 'GET', `/v1/checkouts/client/${secret}`, { headers: headersOf(kind) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await anonymousRead(secret));
    expect(res.body.organization).toMatchObject({ id: seller.organizationId, slug: seller.slug });
  });

  it('PATCH /v1/checkouts/client/{client_secret} updates it and answers what an anonymous caller then reads', async () => {
    const secret = await openCheckout();
    const res = await call(base, 'PATCH', `/v1/checkouts/client/${secret}`, {
      headers: headersOf(kind),
      body: { customer_email: 'buyer@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body.customer_email).toBe('buyer@example.com');
    expect(res.body).toEqual(await anonymousRead(secret));
  });

  it('POST /v1/checkouts/client/{client_secret}/confirm confirms it as for an anonymous caller', async () => {
    const secret = await openCheckout();
    const res = await call(base, 'POST', `/v1/checkouts/client/${secret}/confirm`, {
      headers: headersOf(kind),
      body: { confirmation_token_id: 'pm_card_visa', customer_email: 'buyer@example.com', customer_name: 'Buyer' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('confirmed');
    expect(res.body.customer_session_token).toEqual(expect.any(String));
    // What an anonymous caller then reads, but for the fulfilment that may have completed meanwhile
    // (`succeeded`, and the product's `is_deletable`, false once the subscription exists), and the
    // session token, which only the confirming answer carries.
    const sinceFulfilment = (body: object) =>
      JSON.parse(JSON.stringify(body, (key, value) => (key === 'is_deletable' ? undefined : value)));
    const { customer_session_token: _token, ...confirmed } = sinceFulfilment(res.body);
    const { customer_session_token: _none, ...read } = sinceFulfilment(await anonymousRead(secret));
    expect(['confirmed', 'succeeded']).toContain(read.status);
    expect(confirmed).toEqual({ ...read, status: 'confirmed', modified_at: expect.any(String) });
  });

  it('GET /v1/customer-portal/organizations/{slug} answers as to an anonymous caller', async () => {
    const path = `/v1/customer-portal/organizations/${seller.slug}`;
    const anonymous = await call(base, 'GET', path);
    expect(anonymous.status).toBe(200);
    const res = await call(base, 'GET', path, { headers: headersOf(kind) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(anonymous.body);
    expect(res.body.products.map((p: { id: string }) => p.id)).toEqual([productId]);
  });
});

describe('over POST /graphql', () => {
  it("gives another organization's token the seller's public profile in a checkout, and nothing more", async () => {
    const secret = await openCheckout();
    const token = headersOf("another organization's access token");
    const gql = (query: string) => call(base, 'POST', '/graphql', { headers: token, body: { query } });
    const profile = await gql(`{ checkoutClient(clientSecret: "${secret}") { organization { id slug } } }`);
    expect(profile.body).toEqual({
      data: { checkoutClient: { organization: { id: seller.organizationId, slug: seller.slug } } },
    });
    const email = await gql(`{ checkoutClient(clientSecret: "${secret}") { organization { email } } }`);
    expect(email.body.errors[0].extensions.code).toBe('NotPermitted');
    expect(email.text).not.toContain(seller.email);
  });
});
