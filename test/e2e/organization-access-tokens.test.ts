import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { hashToken } from '../../kit/tokens.js';
import { call, createTenant, TEST_SECRET, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/** /v1/organization-access-tokens/ as Polar has it: the raw token is shown once and stored only hashed. */
let stack: TestStack;
let base: string;
let owner: Tenant;
let stranger: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  owner = await createTenant(stack.production);
  stranger = await createTenant(stack.production);
});

describe('organization access tokens', () => {
  it('creates a token shown once, which then authenticates with exactly its scopes', async () => {
    const created = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.pat,
      body: {
        organization_id: owner.organizationId,
        comment: 'ci deploys',
        scopes: ['organizations:read'],
        expires_in: 'P30D',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);
    expect(created.body.organization_access_token).toMatchObject({
      comment: 'ci deploys',
      scopes: ['organizations:read'],
      organization_id: owner.organizationId,
      last_used_at: null,
    });
    const expiresAt = new Date(created.body.organization_access_token.expires_at).getTime();
    expect(Math.abs(expiresAt - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);

    const read = await call(base, 'GET', '/v1/organizations/', { token: created.body.token });
    expect(read.status).toBe(200);
    expect(read.body.items.map((o: any) => o.id)).toEqual([owner.organizationId]);
    const write = await call(base, 'PATCH', `/v1/organizations/${owner.organizationId}`, {
      token: created.body.token,
      body: {},
    });
    expect(write.status).toBe(403);

    const list = await call(base, 'GET', '/v1/organization-access-tokens/', { token: owner.pat });
    expect(list.status).toBe(200);
    const listed = list.body.items.find((t: any) => t.id === created.body.organization_access_token.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('token');
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
  });

  it('stores only HMAC hashes of tokens', async () => {
    const created = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.oat,
      body: { comment: 'hash check', scopes: ['organizations:read'] },
    });
    const raw: string = created.body.token;
    const client = new pg.Client({
      connectionString: stack.production.environment.identity.orm.config.get('clientUrl') as string,
    });
    await client.connect();
    try {
      for (const table of ['organization_access_tokens', 'personal_access_tokens']) {
        const rows = await client.query(`select row_to_json(t)::text as row from identity.${table} t`);
        for (const { row } of rows.rows) expect(row).not.toMatch(/polar_(oat|pat)_/);
      }
      const hashed = await client.query('select 1 from identity.organization_access_tokens where token_hash = $1', [
        hashToken(raw, TEST_SECRET),
      ]);
      expect(hashed.rowCount).toBe(1);
    } finally {
      await client.end();
    }
  });

  it("acts for the token's own organization: organization_id is refused with an organization token", async () => {
    const res = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.oat,
      body: { organization_id: owner.organizationId, comment: 'x', scopes: [] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'organization_token', loc: ['body', 'organization_id'] });
  });

  it('requires organization_id for a user and refuses an organization the user cannot access', async () => {
    const missing = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.pat,
      body: { comment: 'x', scopes: [] },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'organization_id'] });
    const foreign = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.pat,
      body: { organization_id: stranger.organizationId, comment: 'x', scopes: [] },
    });
    expect(foreign.status).toBe(422);
  });

  it('rejects unknown scopes, scopes that manage tokens, and a bad expiry', async () => {
    for (const body of [
      { comment: 'x', scopes: ['everything'] },
      { comment: 'x', scopes: ['organization_access_tokens:write'] },
      { comment: 'x', scopes: [], expires_in: 'thirty days' },
    ]) {
      const res = await call(base, 'POST', '/v1/organization-access-tokens/', { token: owner.oat, body });
      expect(res.status).toBe(422);
    }
  });

  it('updates comment and scopes, and the new scopes apply at once', async () => {
    const created = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.oat,
      body: { comment: 'before', scopes: ['products:read'] },
    });
    const token = created.body.token;
    expect((await call(base, 'GET', '/v1/organizations/', { token })).status).toBe(403);
    const updated = await call(
      base,
      'PATCH',
      `/v1/organization-access-tokens/${created.body.organization_access_token.id}`,
      { token: owner.oat, body: { comment: 'after', scopes: ['organizations:read'] } },
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ comment: 'after', scopes: ['organizations:read'] });
    expect(updated.body.modified_at).not.toBeNull();
    expect((await call(base, 'GET', '/v1/organizations/', { token })).status).toBe(200);
  });

  it('revokes with 204 and the token stops working at once', async () => {
    const created = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: owner.oat,
      body: { comment: 'short-lived', scopes: ['organizations:read'] },
    });
    const token = created.body.token;
    expect((await call(base, 'GET', '/v1/organizations/', { token })).status).toBe(200);
    const deleted = await call(
      base,
      'DELETE',
      `/v1/organization-access-tokens/${created.body.organization_access_token.id}`,
      { token: owner.oat },
    );
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const after = await call(base, 'GET', '/v1/organizations/', { token });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('invalid_token');
  });

  it("hides other tenants' tokens: 404 on update and delete, absent from lists", async () => {
    const theirs = await call(base, 'POST', '/v1/organization-access-tokens/', {
      token: stranger.oat,
      body: { comment: 'theirs', scopes: [] },
    });
    const id = theirs.body.organization_access_token.id;
    expect(
      (
        await call(base, 'PATCH', `/v1/organization-access-tokens/${id}`, {
          token: owner.oat,
          body: { comment: 'mine' },
        })
      ).status,
    ).toBe(404);
    expect((await call(base, 'DELETE', `/v1/organization-access-tokens/${id}`, { token: owner.oat })).status).toBe(404);
    expect(
      (await call(base, 'DELETE', `/v1/organization-access-tokens/${randomUUID()}`, { token: owner.oat })).status,
    ).toBe(404);
    const list = await call(base, 'GET', '/v1/organization-access-tokens/?limit=100', { token: owner.oat });
    expect(list.body.items.map((t: any) => t.id)).not.toContain(id);
    expect(list.body.items.every((t: any) => t.organization_id === owner.organizationId)).toBe(true);
  });

  it('needs the organization_access_tokens scopes', async () => {
    const limited = await stack.production.admin.createOrganizationAccessToken(owner.organizationId, [
      'organizations:write',
    ]);
    const res = await call(base, 'GET', '/v1/organization-access-tokens/', { token: limited });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });
});
