import { hashToken } from '../../kit/tokens.js';
import { TEST_SECRET } from '../support/stack.js';
import { cookieLine, csrfTokenOf, WebClient } from './client.js';
import { base, liveTokens, owner, PASSWORD, query, signedIn, useWebPagesStack } from './pages-support.js';

useWebPagesStack();

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

  it('signs in: an HttpOnly, SameSite=Lax session cookie (stored hashed) and a 303 to /dashboard', async () => {
    const client = new WebClient(base);
    const res = await client.logIn(owner.email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
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
      // Every one of these either falls back to /dashboard or stays a path of this origin.
      const other = new WebClient(base);
      const form = await other.get(`/login?return_to=${encodeURIComponent(evil)}`);
      const kept = /name="return_to" value="([^"]*)"/.exec(form.text)![1];
      expect(kept === '/dashboard' || (kept.startsWith('/') && !kept.startsWith('//') && !kept.includes('\\'))).toBe(
        true,
      );
      if (!evil.startsWith('/%5C')) expect(kept).toBe('/dashboard');
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
    expect((await client.get('/settings')).location).toBe('/login?return_to=%2Fsettings');
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
