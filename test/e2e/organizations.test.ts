import { randomUUID } from 'node:crypto';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/** Interface §4 "Organizations" through the public REST API: REST → gateway → identity → PostgreSQL. */
let stack: TestStack;
let base: string;
let alice: Tenant;
let bob: Tenant;

beforeAll(async () => {
  stack = await startTestStack('organizations');
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
  bob = await createTenant(stack.production);
});
afterAll(async () => {
  await stack?.close();
});

const ORGANIZATION_KEYS = [
  'created_at',
  'modified_at',
  'id',
  'name',
  'slug',
  'avatar_url',
  'proration_behavior',
  'allow_customer_updates',
  'email',
  'website',
  'socials',
  'status',
  'details_submitted_at',
  'onboarding_resubmission_requested_at',
  'sso_enforced',
  'default_presentment_currency',
  'default_tax_behavior',
  'feature_settings',
  'subscription_settings',
  'notification_settings',
  'customer_email_settings',
  'customer_portal_settings',
  'dispute_settings',
  'embed_hosts',
  'embed_hosts_enforced',
  'country',
  'account_id',
  'payout_account_id',
  'capabilities',
];

describe('organizations:list', () => {
  it('lists only the organization of an organization token', async () => {
    const res = await call(base, 'GET', '/v1/organizations/', { token: alice.oat });
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);
    expect(res.body.pagination).toEqual({ total_count: 1, max_page: 1 });
  });

  it('returns the full Organization shape with defaults filled in', async () => {
    const res = await call(base, 'GET', '/v1/organizations/', { token: alice.pat });
    const org = res.body.items[0];
    for (const key of ORGANIZATION_KEYS) expect(org).toHaveProperty(key);
    expect(org).toMatchObject({
      status: 'created',
      proration_behavior: 'prorate',
      allow_customer_updates: true,
      default_presentment_currency: 'usd',
      default_tax_behavior: 'location',
      socials: [],
      embed_hosts: [],
      embed_hosts_enforced: false,
      sso_enforced: false,
      subscription_settings: {
        allow_multiple_subscriptions: false,
        proration_behavior: 'prorate',
        benefit_revocation_grace_period: 0,
        prevent_trial_abuse: false,
        allow_customer_updates: true,
      },
      customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: true } },
      feature_settings: expect.objectContaining({ seat_based_pricing_enabled: false }),
      capabilities: expect.objectContaining({ api_access: true }),
    });
    expect(org.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('polar-version')).toBe('2026-04');
  });

  it('filters by slug, pages, clamps the limit and sorts', async () => {
    const carol = await createTenant(stack.production);
    for (const [name, slug] of [
      ['Zeta works', `zeta-${carol.slug}`],
      ['Alpha works', `alpha-${carol.slug}`],
    ]) {
      const created = await call(base, 'POST', '/v1/organizations/', { token: carol.pat, body: { name, slug } });
      expect(created.status).toBe(201);
    }
    const all = await call(base, 'GET', '/v1/organizations/?limit=500', { token: carol.pat });
    expect(all.body.pagination).toEqual({ total_count: 3, max_page: 1 });
    expect(all.body.items.map((o: any) => o.slug)).toEqual([carol.slug, `zeta-${carol.slug}`, `alpha-${carol.slug}`]);

    const bySlug = await call(base, 'GET', `/v1/organizations/?slug=alpha-${carol.slug}`, { token: carol.pat });
    expect(bySlug.body.items.map((o: any) => o.name)).toEqual(['Alpha works']);

    const byName = await call(base, 'GET', '/v1/organizations/?sorting=name', { token: carol.pat });
    expect(byName.body.items.map((o: any) => o.name)).toEqual([
      'Alpha works',
      expect.stringMatching(/^Organization/),
      'Zeta works',
    ]);
    const byNameDesc = await call(base, 'GET', '/v1/organizations/?sorting=-name', { token: carol.pat });
    expect(byNameDesc.body.items[0].name).toBe('Zeta works');

    const page2 = await call(base, 'GET', '/v1/organizations/?limit=2&page=2&sorting=name', { token: carol.pat });
    expect(page2.body.pagination).toEqual({ total_count: 3, max_page: 2 });
    expect(page2.body.items.map((o: any) => o.name)).toEqual(['Zeta works']);
    const beyond = await call(base, 'GET', '/v1/organizations/?page=9', { token: carol.pat });
    expect(beyond.status).toBe(200);
    expect(beyond.body.items).toEqual([]);
    expect(beyond.body.pagination.total_count).toBe(3);
  });

  it.each([
    ['page=0', 'page', 'greater_than'],
    ['limit=0', 'limit', 'greater_than'],
    ['page=abc', 'page', 'invalid_type'],
    ['sorting=color', 'sorting', 'enum'],
  ])('rejects %s with a 422 naming the query parameter', async (query, field, type) => {
    const res = await call(base, 'GET', `/v1/organizations/?${query}`, { token: alice.oat });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('RequestValidationError');
    const item = res.body.detail[0];
    expect(item.loc.slice(0, 2)).toEqual(['query', field]);
    if (type !== 'invalid_type') expect(item.type).toBe(type);
    expect(item).toHaveProperty('msg');
    expect(item).toHaveProperty('input');
  });
});

describe('organizations:create', () => {
  it('creates with 201, makes the creator owner, and the organization is then readable', async () => {
    const slug = `new-${alice.slug}`;
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: alice.pat,
      body: { name: 'New Co', slug, email: 'billing@new.example' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'New Co', slug, email: 'billing@new.example', status: 'created' });
    const got = await call(base, 'GET', `/v1/organizations/${res.body.id}`, { token: alice.pat });
    expect(got.status).toBe(200);
    const patched = await call(base, 'PATCH', `/v1/organizations/${res.body.id}`, {
      token: alice.pat,
      body: { name: 'Newer Co' },
    });
    expect(patched.status).toBe(200);
  });

  it('refuses an organization token: 401 Unauthorized (User only)', async () => {
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: alice.oat,
      body: { name: 'Nope', slug: 'nope-oat' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="polar"');
  });

  it('refuses a duplicate slug with 422 and creates nothing', async () => {
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: bob.pat,
      body: { name: 'Copycat', slug: alice.slug },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('PolarRequestValidationError');
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'slug'], type: 'value_error', input: alice.slug });
    const list = await call(base, 'GET', '/v1/organizations/', { token: bob.pat });
    expect(list.body.items.map((o: any) => o.name)).not.toContain('Copycat');
  });

  it('validates the body: missing fields, short name, bad slug, wrong types', async () => {
    const missing = await call(base, 'POST', '/v1/organizations/', { token: bob.pat, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'missing', loc: ['body', 'name'], msg: 'Field required' }),
        expect.objectContaining({ type: 'missing', loc: ['body', 'slug'] }),
      ]),
    );
    const short = await call(base, 'POST', '/v1/organizations/', {
      token: bob.pat,
      body: { name: 'ab', slug: 'ok-slug-x' },
    });
    expect(short.body.detail[0]).toMatchObject({ type: 'string_too_short', loc: ['body', 'name'], input: 'ab' });
    const badSlug = await call(base, 'POST', '/v1/organizations/', {
      token: bob.pat,
      body: { name: 'Fine name', slug: 'Not A Slug' },
    });
    expect(badSlug.status).toBe(422);
    expect(badSlug.body.detail[0].loc).toEqual(['body', 'slug']);
    const wrongType = await call(base, 'POST', '/v1/organizations/', {
      token: bob.pat,
      body: { name: 42, slug: 'typed-slug' },
    });
    expect(wrongType.body.detail[0]).toMatchObject({ loc: ['body', 'name'], input: 42 });
    const notObject = await call(base, 'POST', '/v1/organizations/', { token: bob.pat, body: [1, 2] });
    expect(notObject.status).toBe(422);
  });

  it('answers malformed JSON with a 422 json_invalid item', async () => {
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: bob.pat,
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: 'RequestValidationError',
      detail: [{ type: 'json_invalid', loc: ['body', 0] }],
    });
  });
});

describe('organizations:get', () => {
  it("returns 404 ResourceNotFound for another tenant's id and for an unknown id", async () => {
    for (const id of [bob.organizationId, randomUUID()]) {
      for (const token of [alice.oat, alice.pat]) {
        const res = await call(base, 'GET', `/v1/organizations/${id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'ResourceNotFound', detail: 'Not found' });
      }
    }
  });

  it('rejects a non-UUID id with a 422 on the path', async () => {
    const res = await call(base, 'GET', '/v1/organizations/not-a-uuid', { token: alice.oat });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'id'], input: 'not-a-uuid' });
  });
});

describe('organizations:update', () => {
  it('accepts an empty body and changes nothing', async () => {
    const before = await call(base, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.oat });
    const res = await call(base, 'PATCH', `/v1/organizations/${alice.organizationId}`, { token: alice.oat, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before.body);
  });

  it('updates settings and stamps modified_at', async () => {
    const res = await call(base, 'PATCH', `/v1/organizations/${alice.organizationId}`, {
      token: alice.oat,
      body: {
        name: 'Alice Renamed',
        website: 'https://alice.example',
        socials: [{ platform: 'github', url: 'https://github.com/alice' }],
        subscription_settings: {
          allow_multiple_subscriptions: true,
          proration_behavior: 'invoice',
          benefit_revocation_grace_period: 3,
          prevent_trial_abuse: true,
          allow_customer_updates: false,
        },
        feature_settings: { seat_based_pricing_enabled: true },
        customer_email_settings: {
          order_confirmation: false,
          subscription_cancellation: true,
          subscription_confirmation: true,
          subscription_cycled: true,
          subscription_past_due: true,
          subscription_revoked: true,
          subscription_uncanceled: true,
          subscription_updated: true,
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Alice Renamed',
      website: 'https://alice.example',
      proration_behavior: 'invoice',
      allow_customer_updates: false,
      socials: [{ platform: 'github', url: 'https://github.com/alice' }],
      feature_settings: expect.objectContaining({ seat_based_pricing_enabled: true, wallets_enabled: false }),
      customer_email_settings: expect.objectContaining({ order_confirmation: false, subscription_updated: true }),
    });
    expect(res.body.modified_at).not.toBeNull();
    const again = await call(base, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.pat });
    expect(again.body.subscription_settings.benefit_revocation_grace_period).toBe(3);
  });

  it('refuses a member without the managing role with 403 NotPermitted and changes nothing', async () => {
    const email = `member-${alice.slug}@example.com`;
    const member = await stack.production.admin.createUser(email, 'member password');
    await stack.production.admin.addMember(alice.organizationId, email, MemberRole.MEMBER);
    const memberPat = await stack.production.admin.createPersonalAccessToken(member.id, ['organizations:write']);
    const read = await call(base, 'GET', `/v1/organizations/${alice.organizationId}`, { token: memberPat });
    expect(read.status).toBe(200);
    const res = await call(base, 'PATCH', `/v1/organizations/${alice.organizationId}`, {
      token: memberPat,
      body: { name: 'Hijacked' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'NotPermitted', detail: "You don't have permission to manage the organization" });
    const after = await call(base, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.oat });
    expect(after.body.name).not.toBe('Hijacked');
  });

  it("answers 404 for another tenant's organization, before any permission check", async () => {
    const res = await call(base, 'PATCH', `/v1/organizations/${bob.organizationId}`, {
      token: alice.oat,
      body: { name: 'Mine now' },
    });
    expect(res.status).toBe(404);
  });

  it('rejects an invalid setting with 422 and changes nothing', async () => {
    const res = await call(base, 'PATCH', `/v1/organizations/${bob.organizationId}`, {
      token: bob.oat,
      body: { default_tax_behavior: 'sometimes', website: 'not a url' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.default_tax_behavior', 'body.website']),
    );
  });
});

describe('authentication and scopes', () => {
  it('answers 401 invalid_token in the OAuth shape for unknown, malformed and revoked tokens', async () => {
    const revoked = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'organizations:read',
    ]);
    await stack.production.admin.revokeToken(revoked);
    const unknownButWellFormed = alice.oat.slice(0, -7) + (alice.oat.at(-7) === 'a' ? 'b' : 'a') + alice.oat.slice(-6);
    for (const token of ['garbage', 'polar_oat_short', unknownButWellFormed, revoked, 'undefined']) {
      const res = await call(base, 'GET', '/v1/organizations/', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'invalid_token',
        error_description: 'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="polar", error="invalid_token"/);
    }
  });

  it('answers 401 invalid_token before routing, even on unknown paths', async () => {
    const res = await call(base, 'GET', '/v1/nowhere/', { token: 'garbage' });
    expect(res.status).toBe(401);
  });

  it('rejects an expired token', async () => {
    const expiring = await stack.production.admin.createOrganizationAccessToken(
      alice.organizationId,
      ['organizations:read'],
      'PT1S',
    );
    expect((await call(base, 'GET', '/v1/organizations/', { token: expiring })).status).toBe(200);
    await new Promise(resolve => setTimeout(resolve, 1200));
    expect((await call(base, 'GET', '/v1/organizations/', { token: expiring })).status).toBe(401);
  });

  it('answers 401 Unauthorized without credentials', async () => {
    const res = await call(base, 'GET', '/v1/organizations/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
  });

  it('answers 403 insufficient_scope and lets a write scope read', async () => {
    const none = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, ['products:read']);
    const res = await call(base, 'GET', '/v1/organizations/', { token: none });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect(res.headers.get('www-authenticate')).toContain('scope="organizations:read organizations:write"');
    const readOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'organizations:read',
    ]);
    expect(
      (await call(base, 'PATCH', `/v1/organizations/${alice.organizationId}`, { token: readOnly, body: {} })).status,
    ).toBe(403);
    const writeOnly = await stack.production.admin.createOrganizationAccessToken(alice.organizationId, [
      'organizations:write',
    ]);
    expect((await call(base, 'GET', `/v1/organizations/${alice.organizationId}`, { token: writeOnly })).status).toBe(
      200,
    );
  });
});

describe('routing', () => {
  it("answers unknown routes with FastAPI's 404 body and wrong methods with 405", async () => {
    const missing = await call(base, 'GET', '/v1/unknown/', { token: alice.oat });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Not Found' });
    const wrong = await call(base, 'DELETE', `/v1/organizations/${alice.organizationId}`, { token: alice.oat });
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ detail: 'Method Not Allowed' });
    expect(wrong.headers.get('allow')).toContain('PATCH');
  });

  it('404s an unsupported Polar-Version and echoes a supported one', async () => {
    expect(
      (await call(base, 'GET', '/v1/organizations/', { token: alice.oat, headers: { 'polar-version': '1999-01' } }))
        .status,
    ).toBe(404);
    const ok = await call(base, 'GET', '/v1/organizations/', {
      token: alice.oat,
      headers: { 'polar-version': '2026-10' },
    });
    expect(ok.headers.get('polar-version')).toBe('2026-10');
  });

  it('serves health, readiness, the OpenAPI document and the docs page', async () => {
    expect((await call(base, 'GET', '/healthz')).status).toBe(200);
    expect((await call(base, 'GET', '/readyz')).body).toMatchObject({ status: 'ok' });
    const openapi = await call(base, 'GET', '/openapi.json');
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/v1/organizations/', '/v1/organizations/{id}']),
    );
    const docs = await call(base, 'GET', '/docs');
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(docs.text).toContain('organizations:list');
  });
});

describe('sandbox isolation', () => {
  it('keeps tokens and data apart and marks sandbox responses', async () => {
    const sandboxTenant = await createTenant(stack.sandbox);
    const prodWithSandboxToken = await call(base, 'GET', '/v1/organizations/', { token: sandboxTenant.oat });
    expect(prodWithSandboxToken.status).toBe(401);
    expect(prodWithSandboxToken.body.error).toBe('invalid_token');
    const sandboxWithProdToken = await call(stack.sandbox.baseUrl, 'GET', '/v1/organizations/', { token: alice.oat });
    expect(sandboxWithProdToken.status).toBe(401);
    expect(sandboxWithProdToken.headers.get('x-polar-sandbox')).toBe('1');
    const sandboxList = await call(stack.sandbox.baseUrl, 'GET', '/v1/organizations/', { token: sandboxTenant.oat });
    expect(sandboxList.status).toBe(200);
    expect(sandboxList.headers.get('x-polar-sandbox')).toBe('1');
    expect(sandboxList.body.items.map((o: any) => o.id)).toEqual([sandboxTenant.organizationId]);
    const production = await call(base, 'GET', '/v1/organizations/', { token: alice.oat });
    expect(production.headers.get('x-polar-sandbox')).toBeNull();
  });
});
