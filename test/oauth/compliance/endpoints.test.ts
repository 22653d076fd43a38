// OpenID Connect Discovery 1.0 §3 and RFC 8414 §2 (provider metadata), RFC 7517 (JWKS), RFC 7009
// (revocation), RFC 7662 (introspection), OIDC Core §5.3 (UserInfo), RFC 9700 §4.16 (CORS allowed on
// these endpoints), §4.3.2 / RFC 6750 §2.3 (no tokens in URLs) and §2.1.2 (no implicit, no password grant).
import {
  bearerGet,
  Browserless,
  codeFor,
  createPerson,
  postAuth,
  REDIRECT_URI,
  registerClient,
  startOAuthStack,
  tokenRequest,
  tokensFor,
  type OAuthStack,
  type Person,
  type RegisteredClient,
} from '../support.js';
import { SCOPES_SUPPORTED } from '../../../subgraphs/identity/oauth2/oauth2.constants.js';

let stack: OAuthStack;
let person: Person;
let browser: Browserless;
let client: RegisteredClient;
let other: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('endpoints');
  person = await createPerson(stack);
  client = await registerClient(stack, { scope: 'openid email organizations:read' });
  other = await registerClient(stack, { scope: 'openid email organizations:read' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  new Browserless(stack.base).request('POST', path, { form: body, headers });

describe('discovery', () => {
  it('publishes every field that applies, with absolute URLs under the issuer', async () => {
    const response = await new Browserless(stack.base).get('/.well-known/openid-configuration', {
      origin: 'https://app.example',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body).toEqual(
      expect.objectContaining({
        issuer: stack.base,
        authorization_endpoint: `${stack.base}/oauth2/authorize`,
        token_endpoint: `${stack.base}/v1/oauth2/token`,
        userinfo_endpoint: `${stack.base}/v1/oauth2/userinfo`,
        registration_endpoint: `${stack.base}/v1/oauth2/register`,
        revocation_endpoint: `${stack.base}/v1/oauth2/revoke`,
        introspection_endpoint: `${stack.base}/v1/oauth2/introspect`,
        jwks_uri: `${stack.base}/.well-known/jwks.json`,
        scopes_supported: SCOPES_SUPPORTED,
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        claims_supported: ['sub', 'name', 'email', 'email_verified'],
        authorization_response_iss_parameter_supported: true,
        service_documentation: `${stack.base}/docs`,
      }),
    );
    expect(response.body.scopes_supported).toContain('openid');
    expect(response.body.code_challenge_methods_supported).toContain('S256');
    expect(response.body.introspection_endpoint_auth_methods_supported).toEqual([
      'client_secret_basic',
      'client_secret_post',
    ]);
    const rfc8414 = await new Browserless(stack.base).get('/.well-known/oauth-authorization-server');
    expect(rfc8414.body).toEqual(response.body);
  });

  it('serves the JWKS with CORS', async () => {
    const response = await new Browserless(stack.base).get('/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body.keys.length).toBeGreaterThan(0);
  });

  // It starts a stack of its own: a set-up's budget (test/support/setup-hooks.ts), not a request's.
  it('puts the issuer of the sandbox at its own public URL', async () => {
    const sandbox = await startOAuthStack('endpoints_sandbox', 'sandbox');
    try {
      const metadata = (await new Browserless(sandbox.base).get('/.well-known/openid-configuration')).body;
      expect(metadata.issuer).toBe(sandbox.base);
      expect(metadata.issuer).not.toBe(stack.base);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});

describe('no tokens in URLs, no implicit or password grants', () => {
  it('the authorization response carries only code, state and iss', async () => {
    const { callback } = await codeFor(browser, client);
    expect([...callback.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
    expect(callback.hash).toBe('');
  });

  it('the token endpoint refuses credentials in the query string', async () => {
    const { code, verifier } = await codeFor(browser, client);
    const response = await new Browserless(stack.base).request(
      'POST',
      `/v1/oauth2/token?code=${code}&client_secret=${client.client_secret}`,
      {
        form: {
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
          client_id: client.client_id,
          client_secret: client.client_secret!,
        },
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
  });

  it('the API does not read access tokens from the query string', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const response = await new Browserless(stack.base).get(`/v1/organizations/?access_token=${tokens.access_token}`);
    expect(response.status).toBe(401);
  });
});

describe('revocation (RFC 7009)', () => {
  it('revokes an access token for its client, answers 200 {} for anything else, and refuses other clients quietly', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const byOther = await form('/v1/oauth2/revoke', { token: tokens.access_token, ...postAuth(other) });
    expect(byOther.status).toBe(200);
    expect((await bearerGet(stack, '/v1/organizations/', tokens.access_token)).status).toBe(200);

    const revoked = await form('/v1/oauth2/revoke', {
      token: tokens.access_token,
      token_type_hint: 'access_token',
      ...postAuth(client),
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({});
    expect((await bearerGet(stack, '/v1/organizations/', tokens.access_token)).status).toBe(401);
    // With hint=access_token the refresh token lives on.
    expect(
      (
        await tokenRequest(stack, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          ...postAuth(client),
        })
      ).status,
    ).toBe(200);

    expect((await form('/v1/oauth2/revoke', { token: 'polar_at_u_unknown', ...postAuth(client) })).status).toBe(200);
    const unauthenticated = await form('/v1/oauth2/revoke', { token: tokens.access_token });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error).toBe('invalid_client');
  });

  it('revoking a refresh token ends the grant, access tokens included', async () => {
    const tokens = await tokensFor(stack, browser, client);
    expect((await form('/v1/oauth2/revoke', { token: tokens.refresh_token, ...postAuth(client) })).status).toBe(200);
    expect((await bearerGet(stack, '/v1/organizations/', tokens.access_token)).status).toBe(401);
    expect(
      (
        await tokenRequest(stack, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          ...postAuth(client),
        })
      ).body.error,
    ).toBe('invalid_grant');
  });
});

describe('introspection (RFC 7662)', () => {
  it('describes a live token to its own client only', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const mine = await form('/v1/oauth2/introspect', { token: tokens.access_token, ...postAuth(client) });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    expect(mine.body).toMatchObject({
      active: true,
      client_id: client.client_id,
      token_type: 'access_token',
      scope: client.scope,
      sub_type: 'user',
      sub: person.userId,
      organizations: [person.organizationId],
      aud: client.client_id,
      iss: stack.base,
    });
    expect(mine.body.exp - mine.body.iat).toBe(864000);
    const refresh = await form('/v1/oauth2/introspect', { token: tokens.refresh_token, ...postAuth(client) });
    expect(refresh.body).toMatchObject({ active: true, token_type: 'refresh_token' });
    expect((await form('/v1/oauth2/introspect', { token: tokens.access_token, ...postAuth(other) })).body).toEqual({
      active: false,
    });
    expect((await form('/v1/oauth2/introspect', { token: 'garbage', ...postAuth(client) })).body).toEqual({
      active: false,
    });
    expect((await form('/v1/oauth2/introspect', { token: tokens.access_token })).status).toBe(401);
  });
});

describe('UserInfo', () => {
  it('needs an OAuth access token with openid', async () => {
    const pat = await stack.admin.createPersonalAccessToken(person.userId, ['openid', 'email']);
    expect((await bearerGet(stack, '/v1/oauth2/userinfo', pat)).status).toBe(401);
    expect((await new Browserless(stack.base).get('/v1/oauth2/userinfo')).status).toBe(401);
    const noOpenid = await tokensFor(stack, browser, client, { scope: 'organizations:read' });
    const refused = await bearerGet(stack, '/v1/oauth2/userinfo', noOpenid.access_token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('insufficient_scope');
    const withoutEmail = await tokensFor(stack, browser, client, { scope: 'openid' });
    expect((await bearerGet(stack, '/v1/oauth2/userinfo', withoutEmail.access_token)).body).toEqual({
      sub: person.userId,
    });
  });
});
