import { randomUUID } from 'node:crypto';
import { call, createTenant } from '../support/stack.js';
import { stack, base, alice, bob, ORGANIZATION_KEYS, useOrganizationsStack } from './support/organizations.js';

/** docs/interface.md#endpoints "Organizations" through the public REST API: REST → gateway → identity → PostgreSQL. */
useOrganizationsStack();

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
