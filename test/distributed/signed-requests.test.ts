import { ANONYMOUS, PRINCIPAL_HEADER, type Principal, signPrincipal } from '../../kit/principal.js';
import { LEAKED_TOKEN_RPC } from '../../kit/leaked-tokens.js';
import { INTERNAL_PRINCIPAL_PATH, signInternalRequest } from '../../kit/http/internal-auth.js';
import { call, type Tenant } from '../support/stack.js';
import { WEB_IDENTITY_RPC } from '../../subgraphs/identity/web/web.contract.js';
import { OAUTH2_PROVIDER_RPC } from '../../subgraphs/identity/oauth2/oauth2.contract.js';
import { ORGANIZATION_DIRECTORY_RPC } from '../../subgraphs/identity/contract.js';
import { alice, bob, gateway, identity, INTERNAL_KEY, PASSWORD, rest, useDistributedStack } from './support.js';

useDistributedStack();

describe('a subgraph refuses requests that did not come through the gateway', () => {
  const principalOf = (tenant: Tenant): Principal => ({
    subject: 'organization',
    subjectId: tenant.organizationId,
    credential: 'organization_access_token',
    scopes: ['organizations:read'],
    organizationIds: [tenant.organizationId],
    tokenId: null,
  });
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call(url, 'POST', '/graphql', { body, headers });
  const listQuery = { query: '{ organizations { items { id } } }' };
  const unauthenticated = (res: { status: number; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'UNAUTHENTICATED' } }] });
  };

  it('answers a correctly signed request (the control case)', async () => {
    const res = await post(identity.url, listQuery, {
      [PRINCIPAL_HEADER]: signPrincipal(principalOf(alice), INTERNAL_KEY),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { organizations: { items: [{ id: alice.organizationId }] } } });
  });

  it('refuses a request without the signed principal', async () => {
    unauthenticated(await post(identity.url, listQuery));
  });

  it('refuses a principal signed with another key', async () => {
    unauthenticated(
      await post(identity.url, listQuery, {
        [PRINCIPAL_HEADER]: signPrincipal(principalOf(bob), `wrong-${INTERNAL_KEY}`),
      }),
    );
  });

  it('refuses an expired signature', async () => {
    const stale = signPrincipal(principalOf(alice), INTERNAL_KEY, Date.now() - 5 * 60_000);
    unauthenticated(await post(identity.url, listQuery, { [PRINCIPAL_HEADER]: stale }));
  });

  it('refuses a tampered principal', async () => {
    const [, issued, mac] = signPrincipal(principalOf(alice), INTERNAL_KEY).split('.');
    const forged = Buffer.from(JSON.stringify(principalOf(bob))).toString('base64url');
    unauthenticated(await post(identity.url, listQuery, { [PRINCIPAL_HEADER]: `${forged}.${issued}.${mac}` }));
  });

  it('guards the federation fields too', async () => {
    unauthenticated(await post(identity.url, { query: '{ _service { sdl } }' }));
    unauthenticated(
      await post(identity.url, {
        query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id name } } }',
        variables: { r: [{ __typename: 'Organization', id: bob.organizationId }] },
      }),
    );
    const signed = await post(
      identity.url,
      { query: '{ _service { sdl } }' },
      { [PRINCIPAL_HEADER]: signPrincipal(ANONYMOUS, INTERNAL_KEY) },
    );
    expect(signed.status).toBe(200);
    expect(signed.body.data._service.sdl).toContain('type Organization');
  });

  it('the gateway refuses requests that did not come through the REST adapter', async () => {
    unauthenticated(await post(gateway.url, listQuery));
    unauthenticated(
      await post(gateway.url, listQuery, {
        [PRINCIPAL_HEADER]: signPrincipal(principalOf(alice), `wrong-${INTERNAL_KEY}`),
      }),
    );
    const signed = await post(gateway.url, listQuery, {
      [PRINCIPAL_HEADER]: signPrincipal(principalOf(alice), INTERNAL_KEY),
    });
    expect(signed.status).toBe(200);
    expect(signed.body.data.organizations.items).toEqual([{ id: alice.organizationId }]);
  });

  it('guards the principal endpoint with a signed, fresh body', async () => {
    const body = JSON.stringify({ authorization: `Bearer ${alice.oat}` });
    const send = (headers: Record<string, string>, payload = body) =>
      call(identity.url, 'POST', INTERNAL_PRINCIPAL_PATH, {
        rawBody: payload,
        headers: { 'content-type': 'application/json', ...headers },
      });

    const ok = await send(signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, INTERNAL_KEY));
    expect(ok.status).toBe(200);
    expect(ok.body.principal).toMatchObject({ subject: 'organization', subjectId: alice.organizationId });

    expect((await send({})).status).toBe(401);
    expect(
      (await send(signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, `wrong-${INTERNAL_KEY}`))).status,
    ).toBe(401);
    expect(
      (await send(signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, INTERNAL_KEY, Date.now() - 5 * 60_000)))
        .status,
    ).toBe(401);
    // A signature is bound to its body: replaying it with another token fails.
    const headers = signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, INTERNAL_KEY);
    expect((await send(headers, JSON.stringify({ authorization: `Bearer ${bob.oat}` }))).status).toBe(401);

    const unknownBody = JSON.stringify({ authorization: 'Bearer polar_oat_unknownunknownunknownunknownunknown' });
    const unknown = await send(
      signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, unknownBody, INTERNAL_KEY),
      unknownBody,
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: { code: 'invalid_token', message: expect.any(String), status: 401 } });
  });
});

describe("identity's published contracts refuse calls that are not signed with the internal key", () => {
  const signIn = `${WEB_IDENTITY_RPC.prefix}/signIn`;
  const jwks = `${OAUTH2_PROVIDER_RPC.prefix}/jwks`;
  const send = (path: string, body: string, headers: Record<string, string>) =>
    call(identity.url, 'POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

  it('answers a signed call (the control case)', async () => {
    const body = JSON.stringify({ args: [alice.email, PASSWORD, null] });
    const ok = await send(signIn, body, signInternalRequest('POST', signIn, body, INTERNAL_KEY));
    expect(ok.status).toBe(200);
    expect(ok.body.result.token.startsWith('polar_us_')).toBe(true);
  });

  it('refuses unsigned, forged, stale and re-targeted calls', async () => {
    const body = JSON.stringify({ args: [alice.email, PASSWORD, null] });
    const refused = (res: { status: number; body: any }) => {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String), status: 401 } });
    };
    refused(await send(signIn, body, {}));
    refused(await send(jwks, '{"args":[]}', {}));
    refused(await send(signIn, body, signInternalRequest('POST', signIn, body, `wrong-${INTERNAL_KEY}`)));
    refused(await send(signIn, body, signInternalRequest('POST', signIn, body, INTERNAL_KEY, Date.now() - 5 * 60_000)));
    // A signature is bound to its path: a signed jwks call does not open signIn.
    refused(await send(signIn, body, signInternalRequest('POST', jwks, body, INTERNAL_KEY)));
    // Nobody but the adapter may revoke a token as "leaked".
    const leaked = `${LEAKED_TOKEN_RPC.prefix}/revokeLeaked`;
    const report = JSON.stringify({ args: [alice.oat] });
    refused(await send(leaked, report, {}));
    refused(await send(leaked, report, signInternalRequest('POST', leaked, report, `wrong-${INTERNAL_KEY}`)));
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token: alice.oat })).status).toBe(200);
  });

  it("answers billing's signed question about an organization's settings, and only that", async () => {
    const path = `${ORGANIZATION_DIRECTORY_RPC.prefix}/profile`;
    const body = JSON.stringify({ args: [alice.organizationId] });
    const answered = await send(path, body, signInternalRequest('POST', path, body, INTERNAL_KEY));
    expect(answered.status).toBe(200);
    expect(answered.body.result).toMatchObject({
      id: alice.organizationId,
      customerPortalSettings: { subscription: { pause: false } },
      billing: {
        benefitRevocationGracePeriod: 0,
        prorationBehavior: 'prorate',
        prorationBehaviorUpgrade: null,
        prorationBehaviorDowngrade: null,
      },
    });
    const unsigned = await send(path, body, {});
    expect(unsigned.status).toBe(401);
  });
});
