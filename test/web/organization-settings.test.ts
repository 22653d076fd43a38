import { hashToken } from '../../kit/tokens.js';
import { call, TEST_SECRET } from '../support/stack.js';
import { cookieLine, csrfTokenOf, WebClient } from './client.js';
import { createTenant } from '../support/stack.js';
import {
  base,
  liveTokens,
  memberEmail,
  owner,
  PASSWORD,
  query,
  signedIn,
  stack,
  stranger,
  useWebPagesStack,
} from './pages-support.js';

useWebPagesStack();

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
    expect(page.text).toContain('<h3>Catalogue</h3>');
    expect(page.text).toContain('<h4>Products</h4>');
    expect(page.text).toContain('value="products:read"');
    expect(page.text).not.toContain('value="organization_access_tokens:write"');
    // Only scopes of what the service serves: meters and metrics, but none for payouts, OpenID Connect…
    for (const absent of ['payouts:read', 'wallets:write', 'openid', 'user:read'])
      expect(page.text).not.toContain(`value="${absent}"`);
    expect(page.text).toContain('<h3>Usage and analytics</h3>');
    for (const served of ['meters:read', 'events:write', 'metrics:read'])
      expect(page.text).toContain(`value="${served}"`);
    expect(page.text).toMatch(/data-environment="production"><strong>Production\.<\/strong>/);
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
    // The form offers fewer scopes than the API takes: a scope it leaves out is still valid when posted.
    const unlisted = await client.post(`${orgPage}/tokens`, {
      comment: 'payouts',
      scopes: 'payouts:read',
      expires_in: '',
      csrf_token: csrfTokenOf(list.text),
    });
    expect(unlisted.status).toBe(200);
    expect(unlisted.text).toContain('payouts:read');
  });

  it('says on every settings page, visibly, that the sandbox is the sandbox', async () => {
    const tenant = await createTenant(stack.sandbox);
    const client = new WebClient(stack.sandbox.baseUrl);
    expect((await client.logIn(tenant.email, PASSWORD)).status).toBe(303);
    for (const path of ['/settings', `/settings/organizations/${tenant.organizationId}`]) {
      const page = await client.get(path);
      expect(page.status).toBe(200);
      expect(page.text).toMatch(
        /<div class="warning" role="note" data-environment="sandbox"><strong>Sandbox\.<\/strong>/,
      );
      expect(page.text).not.toContain('data-environment="production"');
    }
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
