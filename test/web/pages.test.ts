import pg from 'pg';
import { hashToken } from '../../kit/tokens.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { call, createTenant, startTestStack, TEST_SECRET, type Tenant, type TestStack } from '../support/stack.js';
import { cookieLine, csrfTokenOf, WebClient } from './client.js';

/** The sign-in and organization settings pages over real HTTP (rest-adapter/web). */
let stack: TestStack;
let base: string;
let owner: Tenant;
let stranger: Tenant;
const PASSWORD = 'correct horse battery'; // what createTenant gives its users
const memberEmail = `member-${process.pid}-${Date.now()}@example.com`;

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({
    connectionString: stack.production.environment.identity.orm.config.get('clientUrl') as string,
  });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function signedIn(email: string): Promise<WebClient> {
  const client = new WebClient(base);
  const res = await client.logIn(email, PASSWORD);
  expect(res.status).toBe(303);
  return client;
}

const liveTokens = async (organizationId: string) =>
  Number(
    (
      await query(
        'select count(*) from identity.organization_access_tokens where organization_id = $1 and deleted_at is null',
        [organizationId],
      )
    )[0].count,
  );

beforeAll(async () => {
  stack = await startTestStack('web_pages');
  base = stack.production.baseUrl;
  owner = await createTenant(stack.production);
  stranger = await createTenant(stack.production);
  await stack.production.admin.createUser(memberEmail, PASSWORD);
  await stack.production.admin.addMember(owner.organizationId, memberEmail, MemberRole.MEMBER);
});
afterAll(async () => {
  await stack?.close();
});

describe('login page', () => {
  it('shows a plain HTML form labelled Email and Password with a Log in button and a Sign up link', async () => {
    const client = new WebClient(base);
    const res = await client.get('/login');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toMatch(
      /<label for="login-email">Email<\/label><input id="login-email" type="email" name="email"/,
    );
    expect(res.text).toMatch(
      /<label for="login-password">Password<\/label><input id="login-password" type="password" name="password"/,
    );
    expect(res.text).toContain('<button type="submit">Log in</button>');
    expect(res.text).toMatch(/<a href="\/signup">Sign up<\/a>/);
    expect(res.text).toMatch(/<input type="hidden" name="csrf_token" value="[\w-]{43}">/);
    expect(res.text).not.toContain('<script');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csrfCookie = cookieLine(res, 'polar_csrf')!;
    expect(csrfCookie).toMatch(/HttpOnly/i);
    expect(csrfCookie).toMatch(/SameSite=Lax/i);
  });

  it('answers a wrong password or an unknown e-mail with the form again, 400, the same message, and no session', async () => {
    const client = new WebClient(base);
    const wrong = await client.logIn(owner.email, 'not the password');
    const unknown = await client.logIn(`nobody-${Date.now()}@example.com`, 'not the password');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(400);
      expect(res.text).toContain('Incorrect email or password.');
      expect(res.text).toContain('<button type="submit">Log in</button>');
      expect(cookieLine(res, 'polar_session')).toBeUndefined();
    }
    expect(wrong.text).toContain(`value="${owner.email}"`);
    expect(client.cookies.has('polar_session')).toBe(false);
  });

  it('signs in: an HttpOnly, SameSite=Lax session cookie (stored hashed) and a 303 to /settings', async () => {
    const client = new WebClient(base);
    const res = await client.logIn(owner.email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings');
    const line = cookieLine(res, 'polar_session')!;
    expect(line).toMatch(/^polar_session=polar_us_[0-9A-Za-z]{43};/);
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/Max-Age=1209600;/); // 14 days
    expect(line).not.toMatch(/Secure/i); // the public URL of the test stack is http
    const raw = client.cookies.get('polar_session')!;
    const rows = await query(
      'select user_id, token_hash, expires_at from identity.user_sessions where token_hash = $1',
      [hashToken(raw, TEST_SECRET)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].user_id).toBe(owner.userId);
    expect(Math.abs(new Date(rows[0].expires_at).getTime() - (Date.now() + 14 * 86_400_000))).toBeLessThan(60_000);
    expect(
      JSON.stringify(await query('select row_to_json(s)::text as row from identity.user_sessions s')),
    ).not.toContain('polar_us_');
    const settings = await client.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain(owner.email);
  });

  it('goes back to a same-origin return_to and refuses every other one (no open redirect)', async () => {
    const target = `/settings/organizations/${owner.organizationId}?tab=tokens`;
    const client = new WebClient(base);
    const page = await client.get(`/login?return_to=${encodeURIComponent(target)}`);
    expect(page.text).toContain(`name="return_to" value="${target.replace('&', '&amp;')}"`);
    const ok = await client.post('/login', {
      email: owner.email,
      password: PASSWORD,
      csrf_token: csrfTokenOf(page.text),
      return_to: target,
    });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(target);

    for (const evil of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'evil.example',
      '/%5C%5Cevil.example/../',
    ]) {
      // Every one of these either falls back to /settings or stays a path of this origin.
      const other = new WebClient(base);
      const form = await other.get(`/login?return_to=${encodeURIComponent(evil)}`);
      const kept = /name="return_to" value="([^"]*)"/.exec(form.text)![1];
      expect(kept === '/settings' || (kept.startsWith('/') && !kept.startsWith('//') && !kept.includes('\\'))).toBe(
        true,
      );
      if (!evil.startsWith('/%5C')) expect(kept).toBe('/settings');
      const res = await other.post('/login', {
        email: owner.email,
        password: PASSWORD,
        csrf_token: csrfTokenOf(form.text),
        return_to: evil,
      });
      expect(res.status).toBe(303);
      expect(res.location!.startsWith('/')).toBe(true);
      expect(res.location!.startsWith('//')).toBe(false);
      expect(new URL(res.location!, base).origin).toBe(new URL(base).origin);
    }
  });

  it('sends a signed-out visitor of a settings page to /login with return_to', async () => {
    const client = new WebClient(base);
    const res = await client.get(`/settings/organizations/${owner.organizationId}`);
    expect(res.status).toBe(303);
    expect(res.location).toBe(
      `/login?return_to=${encodeURIComponent(`/settings/organizations/${owner.organizationId}`)}`,
    );
    expect((await client.get('/settings')).location).toBe('/login');
  });
});

describe('CSRF', () => {
  it("refuses a login post without a token, with a forged one, or with another browser's", async () => {
    const client = new WebClient(base);
    await client.get('/login');
    const otherToken = await new WebClient(base).csrfFrom('/login');
    for (const csrf of [undefined, 'x'.repeat(43), otherToken]) {
      const res = await client.post('/login', {
        email: owner.email,
        password: PASSWORD,
        ...(csrf ? { csrf_token: csrf } : {}),
      });
      expect(res.status).toBe(403);
      expect(cookieLine(res, 'polar_session')).toBeUndefined();
    }
    // Without the cookie, even the right-looking token is refused.
    const bare = new WebClient(base);
    const res = await bare.post('/login', { email: owner.email, password: PASSWORD, csrf_token: otherToken });
    expect(res.status).toBe(403);
  });

  it('refuses token creation, revocation and sign-out without a valid token, and nothing changes', async () => {
    const client = await signedIn(owner.email);
    const orgPage = `/settings/organizations/${owner.organizationId}`;
    const before = await liveTokens(owner.organizationId);
    const form = { comment: 'csrf', scopes: 'organizations:read', expires_in: '' };
    expect((await client.post(`${orgPage}/tokens`, form)).status).toBe(403);
    expect((await client.post(`${orgPage}/tokens`, { ...form, csrf_token: 'forged' })).status).toBe(403);
    // A token issued before signing in is bound to no session: refused after sign-in.
    const anonymousToken = csrfTokenOf((await new WebClient(base).get('/login')).text);
    expect((await client.post(`${orgPage}/tokens`, { ...form, csrf_token: anonymousToken })).status).toBe(403);
    // The right token but a browser that says the request is cross-site.
    const good = await client.csrfFrom(orgPage);
    expect(
      (await client.post(`${orgPage}/tokens`, { ...form, csrf_token: good }, { 'sec-fetch-site': 'cross-site' }))
        .status,
    ).toBe(403);
    expect(await liveTokens(owner.organizationId)).toBe(before);

    const [victim] = await query(
      'select id from identity.organization_access_tokens where organization_id = $1 and deleted_at is null limit 1',
      [owner.organizationId],
    );
    expect((await client.post(`${orgPage}/tokens/${victim.id}/revoke`, {})).status).toBe(403);
    expect(await liveTokens(owner.organizationId)).toBe(before);

    expect((await client.post('/logout', {})).status).toBe(403);
    expect((await client.get('/settings')).status).toBe(200); // still signed in
  });
});

describe('sign-up', () => {
  it('creates the user, signs them in, and lists no organization yet', async () => {
    const email = `new-${Date.now()}@example.com`;
    const client = new WebClient(base);
    const page = await client.get('/signup');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="signup-email">Email</label>');
    expect(page.text).toContain('<label for="signup-confirm">Confirm password</label>');
    expect(page.text).toMatch(/<a href="\/login">Log in<\/a>/);
    const csrf = csrfTokenOf(page.text);

    const mismatch = await client.post('/signup', {
      email,
      password: 'long enough 1',
      password_confirmation: 'long enough 2',
      csrf_token: csrf,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('The passwords do not match.');
    const short = await client.post('/signup', {
      email,
      password: 'short',
      password_confirmation: 'short',
      csrf_token: csrf,
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 8 characters');
    expect(await query('select 1 from identity.users where email = $1', [email])).toHaveLength(0);

    const res = await client.post('/signup', {
      email,
      password: 'long enough 1',
      password_confirmation: 'long enough 1',
      csrf_token: csrf,
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/settings');
    expect(cookieLine(res, 'polar_session')).toMatch(/^polar_session=polar_us_/);
    const rows = await query('select id, password_hash from identity.users where email = $1', [email]);
    expect(rows).toHaveLength(1);
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    const settings = await client.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('You are not a member of any organization yet.');

    const again = new WebClient(base);
    const duplicate = await again.post('/signup', {
      email,
      password: 'long enough 1',
      password_confirmation: 'long enough 1',
      csrf_token: await again.csrfFrom('/signup'),
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.text).toContain('already exists');
  });

  it('lets a new user create an organization they then own', async () => {
    const email = `founder-${Date.now()}@example.com`;
    const client = new WebClient(base);
    const csrf = await client.csrfFrom('/signup');
    await client.post('/signup', { email, password: PASSWORD, password_confirmation: PASSWORD, csrf_token: csrf });
    const slug = `founded-${Date.now()}`;
    const created = await client.post('/settings/organizations', {
      name: 'Founded <Inc>',
      slug,
      csrf_token: await client.csrfFrom('/settings'),
    });
    expect(created.status).toBe(303);
    const page = await client.get(created.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Founded &lt;Inc&gt;</h1>');
    expect(page.text).toContain('your role: owner');
    const taken = await client.post('/settings/organizations', {
      name: 'Again',
      slug,
      csrf_token: await client.csrfFrom('/settings'),
    });
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('already exists');
  });
});

describe('organization settings', () => {
  it('lists the organizations of the signed-in person, with links, and not others', async () => {
    const client = await signedIn(owner.email);
    const res = await client.get('/settings');
    expect(res.status).toBe(200);
    expect(res.text).toContain(`href="/settings/organizations/${owner.organizationId}"`);
    expect(res.text).toContain(owner.slug);
    expect(res.text).not.toContain(stranger.organizationId);
    expect(res.text).toMatch(
      /<form class="inline" method="post" action="\/logout"><input type="hidden" name="csrf_token"/,
    );
  });

  it('answers 404 to someone who is not a member (page and forms) and to a malformed id', async () => {
    const client = await signedIn(owner.email);
    const page = await client.get(`/settings/organizations/${stranger.organizationId}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain(stranger.slug);
    const csrf = await client.csrfFrom('/settings');
    const before = await liveTokens(stranger.organizationId);
    const post = await client.post(`/settings/organizations/${stranger.organizationId}/tokens`, {
      comment: 'x',
      scopes: 'organizations:read',
      expires_in: '',
      csrf_token: csrf,
    });
    expect(post.status).toBe(404);
    expect(await liveTokens(stranger.organizationId)).toBe(before);
    expect((await client.get('/settings/organizations/not-a-uuid')).status).toBe(404);
  });

  it('shows a member the tokens but refuses them creation and revocation (403)', async () => {
    const client = await signedIn(memberEmail);
    const orgPage = `/settings/organizations/${owner.organizationId}`;
    const page = await client.get(orgPage);
    expect(page.status).toBe(200);
    expect(page.text).toContain('your role: member');
    expect(page.text).not.toContain('Create token');
    expect(page.text).not.toContain('>Revoke<');
    const csrf = csrfTokenOf(page.text);
    const before = await liveTokens(owner.organizationId);
    const create = await client.post(`${orgPage}/tokens`, {
      comment: 'member',
      scopes: 'organizations:read',
      expires_in: '',
      csrf_token: csrf,
    });
    expect(create.status).toBe(403);
    expect(create.text).toContain('Only owners and admins');
    const [victim] = await query(
      'select id from identity.organization_access_tokens where organization_id = $1 and deleted_at is null limit 1',
      [owner.organizationId],
    );
    expect((await client.post(`${orgPage}/tokens/${victim.id}/revoke`, { csrf_token: csrf })).status).toBe(403);
    expect(await liveTokens(owner.organizationId)).toBe(before);
  });

  it('lets the owner create a token with chosen scopes and expiry, shown once, that works on the API', async () => {
    const client = await signedIn(owner.email);
    const orgPage = `/settings/organizations/${owner.organizationId}`;
    const page = await client.get(orgPage);
    expect(page.text).toContain('<legend>Scopes</legend>');
    expect(page.text).toContain('<h3>Products</h3>');
    expect(page.text).toContain('value="products:read"');
    expect(page.text).not.toContain('value="organization_access_tokens:write"');
    for (const option of ['No expiry', '7 days', '30 days', '90 days', '1 year'])
      expect(page.text).toContain(`>${option}</option>`);

    const res = await client.post(`${orgPage}/tokens`, {
      comment: 'deploys <prod>',
      scopes: ['organizations:read', 'products:read'],
      expires_in: 'P7D',
      csrf_token: csrfTokenOf(page.text),
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('shown only once');
    const raw = /(polar_oat_[0-9A-Za-z]{43})/.exec(res.text)![1];
    expect(res.text).toContain('deploys &lt;prod&gt;');

    const row = (
      await query('select scopes, expires_at, comment from identity.organization_access_tokens where token_hash = $1', [
        hashToken(raw, TEST_SECRET),
      ])
    )[0];
    expect(row.comment).toBe('deploys <prod>');
    expect([...row.scopes].sort()).toEqual(['organizations:read', 'products:read']);
    expect(Math.abs(new Date(row.expires_at).getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

    const api = await call(base, 'GET', '/v1/organizations/', { token: raw });
    expect(api.status).toBe(200);
    expect(api.body.items.map((o: any) => o.id)).toEqual([owner.organizationId]);

    const list = await client.get(orgPage);
    expect(list.text).toContain('deploys &lt;prod&gt;');
    expect(list.text).toContain('<code>products:read</code>');
    expect(list.text).not.toContain(raw);

    const bad = await client.post(`${orgPage}/tokens`, {
      comment: 'none',
      expires_in: '',
      csrf_token: csrfTokenOf(list.text),
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Choose at least one scope.');
    const badScope = await client.post(`${orgPage}/tokens`, {
      comment: 'x',
      scopes: 'organization_access_tokens:write',
      expires_in: '',
      csrf_token: csrfTokenOf(list.text),
    });
    expect(badScope.status).toBe(400);
    const badExpiry = await client.post(`${orgPage}/tokens`, {
      comment: 'x',
      scopes: 'organizations:read',
      expires_in: 'P5000Y',
      csrf_token: csrfTokenOf(list.text),
    });
    expect(badExpiry.status).toBe(400);
  });

  it('revokes a token from the list: the token then answers 401', async () => {
    const client = await signedIn(owner.email);
    const orgPage = `/settings/organizations/${owner.organizationId}`;
    const created = await client.post(`${orgPage}/tokens`, {
      comment: 'to revoke',
      scopes: 'organizations:read',
      expires_in: '',
      csrf_token: await client.csrfFrom(orgPage),
    });
    const raw = /(polar_oat_[0-9A-Za-z]{43})/.exec(created.text)![1];
    expect((await call(base, 'GET', '/v1/organizations/', { token: raw })).status).toBe(200);
    const [{ id }] = await query('select id from identity.organization_access_tokens where token_hash = $1', [
      hashToken(raw, TEST_SECRET),
    ]);

    const page = await client.get(orgPage);
    expect(page.text).toContain(`action="${orgPage}/tokens/${id}/revoke"`);
    const res = await client.post(`${orgPage}/tokens/${id}/revoke`, { csrf_token: csrfTokenOf(page.text) });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${orgPage}?revoked=1`);
    expect((await client.get(res.location!)).text).toContain('The access token was revoked.');
    const after = await call(base, 'GET', '/v1/organizations/', { token: raw });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('invalid_token');
    // Revoking again, or a token of another organization: not found.
    expect((await client.post(`${orgPage}/tokens/${id}/revoke`, { csrf_token: csrfTokenOf(page.text) })).status).toBe(
      404,
    );
  });

  it('signs out: the session is revoked and the cookie cleared', async () => {
    const client = await signedIn(owner.email);
    const raw = client.cookies.get('polar_session')!;
    const res = await client.post('/logout', { csrf_token: await client.csrfFrom('/settings') });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login');
    expect(cookieLine(res, 'polar_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    const rows = await query('select deleted_at from identity.user_sessions where token_hash = $1', [
      hashToken(raw, TEST_SECRET),
    ]);
    expect(rows[0].deleted_at).not.toBeNull();
    const replay = await fetch(`${base}/settings`, { redirect: 'manual', headers: { cookie: `polar_session=${raw}` } });
    expect(replay.status).toBe(303);
  });
});

describe('body parsing', () => {
  it('still reads every API body as JSON: a form there is 422 json_invalid', async () => {
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: owner.pat,
      rawBody: 'name=x&slug=y',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'json_invalid' });
  });
});
