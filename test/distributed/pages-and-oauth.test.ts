import { randomBytes } from 'node:crypto';
import { call } from '../support/stack.js';
import { createHash } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { csrfTokenOf, WebClient } from '../web/client.js';
import { alice, bob, logsOf, PASSWORD, parts, PUBLIC_URL, rest, useDistributedStack } from './support.js';

useDistributedStack();

const REDIRECT_URI = 'https://client.example/callback';

/** The raw token of the "Access token created" page. */
function createdTokenOf(html: string): string {
  const match = /<output id="new-token"[^>]*>([^<]+)<\/output>/.exec(html);
  if (!match) throw new Error(`no token on the page: ${html.slice(0, 400)}`);
  return match[1];
}

/** The hidden inputs of the consent form (the carried authorization request). */
function hiddenInputsOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[match[1]] = match[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  return out;
}

describe('sign-in and settings pages through the public REST adapter', () => {
  it('signs in a user created by the operator, creates an organization token in the settings form, and the token works', async () => {
    const browser = new WebClient(rest.url);
    const login = await browser.logIn(alice.email, PASSWORD);
    if (login.status !== 303) throw new Error(`${login.status} ${login.text}\n${parts.map(logsOf).join('\n')}`);
    expect(login.location).toBe('/dashboard');
    expect(browser.cookies.has('polar_session')).toBe(true);

    const settings = await browser.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain(`Signed in as <strong>${alice.email}</strong>`);
    expect(settings.text).toContain(`href="/settings/organizations/${alice.organizationId}"`);

    const page = `/settings/organizations/${alice.organizationId}`;
    const organization = await browser.get(page);
    expect(organization.status).toBe(200);
    const form = { comment: 'made in the distributed settings', scopes: ['organizations:read'], expires_in: 'P30D' };

    // Without the page's CSRF token the form is refused and nothing is created.
    const forged = await browser.post(`${page}/tokens`, { ...form, csrf_token: 'forged' });
    expect(forged.status).toBe(403);

    const created = await browser.post(`${page}/tokens`, { ...form, csrf_token: csrfTokenOf(organization.text) });
    expect(created.status).toBe(200);
    expect(created.text).toContain('Access token created');
    const token = createdTokenOf(created.text);
    expect(token.startsWith('polar_oat_')).toBe(true);

    const listed = await call(rest.url, 'GET', '/v1/organizations/', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);
    const listing = await browser.get(page);
    expect(listing.text).toContain('made in the distributed settings');
  });

  it('refuses wrong credentials with the same page, and signs up, creates an organization and signs out', async () => {
    const browser = new WebClient(rest.url);
    const wrong = await browser.post('/login', {
      email: alice.email,
      password: 'not the password',
      csrf_token: await browser.csrfFrom('/login'),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Incorrect email or password.');

    const email = `signup-${process.pid}-${Date.now()}@example.com`;
    const signup = await browser.post('/signup', {
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      csrf_token: await browser.csrfFrom('/signup'),
    });
    expect(signup.status).toBe(303);
    const empty = await browser.get('/settings');
    expect(empty.text).toContain('You are not a member of any organization yet.');

    const slug = `dist-${process.pid}-${Date.now()}`;
    const created = await browser.post('/settings/organizations', {
      name: 'Signed up over the wire',
      slug,
      csrf_token: csrfTokenOf(empty.text),
    });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/settings\/organizations\/[0-9a-f-]{36}$/);
    const organization = await browser.get(created.location!);
    expect(organization.status).toBe(200);
    expect(organization.text).toContain('Signed up over the wire');
    expect(organization.text).toContain('your role: owner');

    const taken = await browser.post('/settings/organizations', {
      name: 'Same slug',
      slug,
      csrf_token: csrfTokenOf(organization.text),
    });
    // The validation error crossed the hop as itself: the form comes back with its message and values.
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('An organization with this slug already exists.');
    expect(taken.text).toContain('value="Same slug"');

    // Another tenant's organization is not found, not forbidden.
    expect((await browser.get(`/settings/organizations/${bob.organizationId}`)).status).toBe(404);

    const logout = await browser.post('/logout', { csrf_token: csrfTokenOf(organization.text) });
    expect(logout.status).toBe(303);
    expect(browser.cookies.has('polar_session')).toBe(false);
    const after = await browser.get('/settings');
    expect(after.status).toBe(303);
    expect(after.location).toBe('/login?return_to=%2Fsettings');
  });
});

describe('the customer portal pages through the public REST adapter', () => {
  it('opens from a customer session link and signs in by code, finding the seller over signed RPC', async () => {
    const customer = await call(rest.url, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `portal-${randomBytes(4).toString('hex')}@example.com` },
    });
    expect(customer.status).toBe(201);
    const session = await call(rest.url, 'POST', '/v1/customer-sessions/', {
      token: alice.oat,
      body: { customer_id: customer.body.id },
    });
    const link = new URL(session.body.customer_portal_url);
    const browser = new WebClient(rest.url);
    const opened = await browser.get(`${link.pathname}${link.search}`);
    if (opened.status !== 303) throw new Error(`${opened.status} ${opened.text}\n${parts.map(logsOf).join('\n')}`);
    expect(opened.location).toBe(`/portal/${alice.slug}`);
    expect(browser.cookies.get('polar_portal_session')).toBe(session.body.token);
    const subscriptions = await browser.get(`/portal/${alice.slug}/subscriptions`);
    expect(subscriptions.status).toBe(200);
    expect(subscriptions.text).toContain('You have no subscriptions.');

    const stranger = new WebClient(rest.url);
    const signIn = await stranger.get(`/portal/${alice.slug}/subscriptions`);
    expect(signIn.status).toBe(303);
    expect(signIn.location).toBe(
      `/portal/${alice.slug}/request?return_to=${encodeURIComponent(`/portal/${alice.slug}/subscriptions`)}`,
    );
    const request = await stranger.post(`/portal/${alice.slug}/request`, {
      email: customer.body.email,
      csrf_token: await stranger.csrfFrom(`/portal/${alice.slug}/request`),
    });
    expect(request.status).toBe(303);
    expect(request.location).toContain(`/portal/${alice.slug}/authenticate`);
  });
});

describe('the hosted checkout through the public REST adapter', () => {
  it('follows a checkout link to its page and completes a free checkout with the form', async () => {
    const product = await call(rest.url, 'POST', '/v1/products/', {
      token: alice.oat,
      body: { name: 'Distributed free plan', recurring_interval: 'month', prices: [{ amount_type: 'free' }] },
    });
    expect(product.status).toBe(201);
    const link = await call(rest.url, 'POST', '/v1/checkout-links/', {
      token: alice.oat,
      body: { payment_processor: 'stripe', products: [product.body.id] },
    });
    expect(link.status).toBe(201);
    expect(link.body.url).toBe(`${PUBLIC_URL}/v1/checkout-links/${link.body.client_secret}/redirect`);

    const browser = new WebClient(rest.url);
    const opened = await browser.get(new URL(link.body.url).pathname);
    expect(opened.status).toBe(307);
    const path = new URL(opened.location!).pathname;
    expect(path).toMatch(/^\/checkout\/polar_c_/);
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Distributed free plan');
    expect(page.text).not.toContain('name="confirmation_token_id"');

    const done = await browser.post(path, {
      customer_email: 'free.buyer@example.com',
      action: 'pay',
      csrf_token: csrfTokenOf(page.text),
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe(`${path}/confirmation`);
    let confirmation = await browser.get(`${path}/confirmation`);
    for (let i = 0; i < 30 && confirmation.text.includes('http-equiv="refresh"'); i++) {
      await new Promise(resolve => setTimeout(resolve, 200));
      confirmation = await browser.get(`${path}/confirmation`);
    }
    expect(confirmation.status).toBe(200);
    expect(confirmation.text).toContain('Thank you!');
  });
});

describe('OAuth 2.0 / OIDC through the public REST adapter', () => {
  it('discovery names the public URL as the issuer', async () => {
    const discovery = await call(rest.url, 'GET', '/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(PUBLIC_URL);
    expect(discovery.body.token_endpoint).toBe(`${PUBLIC_URL}/v1/oauth2/token`);
    expect(discovery.body.jwks_uri).toBe(`${PUBLIC_URL}/.well-known/jwks.json`);
  });

  it('runs the authorization-code flow: register, authorize, consent, token, userinfo, API call, id_token', async () => {
    const registered = await call(rest.url, 'POST', '/v1/oauth2/register', {
      body: {
        client_name: 'Distributed client',
        redirect_uris: [REDIRECT_URI],
        scope: 'openid email organizations:read',
        token_endpoint_auth_method: 'client_secret_post',
      },
    });
    if (registered.status !== 201)
      throw new Error(`${registered.status} ${registered.text}\n${parts.map(logsOf).join('\n')}`);
    const client = registered.body as { client_id: string; client_secret: string };

    const browser = new WebClient(rest.url);
    expect((await browser.logIn(alice.email, PASSWORD)).status).toBe(303);
    const verifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(8).toString('hex');
    const state = randomBytes(8).toString('hex');
    const authorize = await browser.get(
      `/oauth2/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'openid email organizations:read',
        state,
        nonce,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    expect(authorize.status).toBe(200);
    expect(authorize.text).toContain('Distributed client');

    const consent = await browser.post('/oauth2/consent', { ...hiddenInputsOf(authorize.text), action: 'allow' });
    expect(consent.status).toBe(303);
    const callback = new URL(consent.location!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(PUBLIC_URL);
    const code = callback.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const exchanged = await new WebClient(rest.url).post('/v1/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(exchanged.status).toBe(200);
    const tokens = JSON.parse(exchanged.text);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'openid email organizations:read' });
    expect(tokens.access_token.startsWith('polar_at_u_')).toBe(true);

    const userinfo = await call(rest.url, 'GET', '/v1/oauth2/userinfo', { token: tokens.access_token });
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toMatchObject({ sub: alice.userId, email: alice.email });

    const organizations = await call(rest.url, 'GET', '/v1/organizations/', { token: tokens.access_token });
    expect(organizations.status).toBe(200);
    expect(organizations.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);

    const jwks = await call(rest.url, 'GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet(jwks.body), {
      issuer: PUBLIC_URL,
      audience: client.client_id,
    });
    expect(payload).toMatchObject({ sub: alice.userId, nonce });

    // The code is single-use across the hop too.
    const replay = await new WebClient(rest.url).post('/v1/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.text).error).toBe('invalid_grant');
  });
});
