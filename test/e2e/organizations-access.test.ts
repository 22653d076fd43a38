import { call, createTenant } from '../support/stack.js';
import { stack, base, alice, useOrganizationsStack } from './support/organizations.js';

/** docs/interface.md#endpoints "Organizations" through the public REST API: REST → gateway → identity → PostgreSQL. */
useOrganizationsStack();

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
