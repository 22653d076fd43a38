import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { call } from '../support/stack.js';
import { stack, base, alice, bob, useOrganizationsStack } from './support/organizations.js';

/** docs/interface.md#endpoints "Organizations" through the public REST API: REST → gateway → identity → PostgreSQL. */
useOrganizationsStack();

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
