// RFC 7591 §2 (client metadata), §3.2.1 (201 client information response), §3.2.2 (invalid_redirect_uri,
// invalid_client_metadata); RFC 7592 §2 (read, update, delete with the registration access token);
// RFC 9700 §2.1 / §4.1.1 (https redirect URIs, http only on loopback) and docs/oauth.md#rfc-9700-checklist item 12 (a client cannot pick
// its own client_id).
import {
  Browserless,
  createPerson,
  registerClient,
  REDIRECT_URI,
  startOAuthStack,
  type OAuthStack,
  type Person,
} from '../support.js';
import { SCOPES_SUPPORTED } from '../../../subgraphs/identity/oauth2/oauth2.constants.js';

let stack: OAuthStack;
let person: Person;

beforeAll(async () => {
  stack = await startOAuthStack('registration');
  person = await createPerson(stack);
});
afterAll(async () => {
  await stack?.close();
});

const register = (body: unknown, headers: Record<string, string> = {}) =>
  new Browserless(stack.base).request('POST', '/v1/oauth2/register', { json: body, headers });

describe('dynamic client registration', () => {
  it('answers 201 with the metadata, a polar_ci_ id, a polar_cs_ secret that never expires, and RFC 7592 management', async () => {
    const response = await register({
      client_name: 'Acme',
      redirect_uris: [REDIRECT_URI],
      client_id: 'polar_ci_chosen_by_me',
      logo_uri: 'https://client.example/logo.png',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = response.body;
    expect(body.client_id).toMatch(/^polar_ci_[0-9A-Za-z]{43}$/);
    expect(body.client_secret).toMatch(/^polar_cs_[0-9A-Za-z]{43}$/);
    expect(body.client_secret_expires_at).toBe(0);
    expect(Math.abs(body.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);
    expect(body.registration_access_token).toMatch(/^polar_crt_/);
    expect(body.registration_client_uri).toBe(`${stack.base}/v1/oauth2/register/${body.client_id}`);
    expect(body).toMatchObject({
      client_name: 'Acme',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      default_sub_type: 'user',
      application_type: 'web',
      logo_uri: 'https://client.example/logo.png',
      scope: SCOPES_SUPPORTED.join(' '),
    });
  });

  it('gives a public client no secret', async () => {
    const response = await register({
      client_name: 'Native',
      redirect_uris: ['http://127.0.0.1/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(response.status).toBe(201);
    expect(response.body).not.toHaveProperty('client_secret');
    expect(response.body).not.toHaveProperty('client_secret_expires_at');
  });

  it('registers a native app as such (OIDC Registration §2 application_type)', async () => {
    const response = await register({
      client_name: 'Desktop',
      redirect_uris: ['http://127.0.0.1/cb'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    });
    expect(response.status).toBe(201);
    expect(response.body.application_type).toBe('native');
  });

  it.each([
    ['http on a public host', ['http://client.example/cb']],
    ['a fragment', ['https://client.example/cb#frag']],
    ['a relative URI', ['/cb']],
    ['a custom scheme', ['javascript:alert(1)']],
    ['a wildcard', ['https://*.client.example/cb']],
    ['no URI at all', []],
  ])('refuses %s with invalid_redirect_uri', async (_label, redirectUris) => {
    const response = await register({ client_name: 'Bad', redirect_uris: redirectUris });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_redirect_uri', error_description: expect.any(String) });
  });

  it('accepts http on loopback hosts', async () => {
    for (const uri of ['http://127.0.0.1:8080/cb', 'http://[::1]/cb', 'http://localhost:3000/cb']) {
      expect((await register({ client_name: 'Loop', redirect_uris: [uri] })).status).toBe(201);
    }
  });

  it.each([
    ['no client_name', { redirect_uris: [REDIRECT_URI] }],
    [
      'an unknown auth method',
      { client_name: 'x', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'private_key_jwt' },
    ],
    ['an unknown scope', { client_name: 'x', redirect_uris: [REDIRECT_URI], scope: 'openid superpowers' }],
    [
      'a scope nobody may grant',
      { client_name: 'x', redirect_uris: [REDIRECT_URI], scope: 'organization_access_tokens:write' },
    ],
    ['the implicit grant', { client_name: 'x', redirect_uris: [REDIRECT_URI], grant_types: ['implicit'] }],
    ['the token response type', { client_name: 'x', redirect_uris: [REDIRECT_URI], response_types: ['token'] }],
    ['a bad logo_uri', { client_name: 'x', redirect_uris: [REDIRECT_URI], logo_uri: 'not a url' }],
    ['a bad default_sub_type', { client_name: 'x', redirect_uris: [REDIRECT_URI], default_sub_type: 'robot' }],
    ['a bad application_type', { client_name: 'x', redirect_uris: [REDIRECT_URI], application_type: 'desktop' }],
    ['a body that is not an object', ['x']],
  ])('refuses %s with invalid_client_metadata', async (_label, body) => {
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_client_metadata');
  });

  it('refuses registration with a personal API token (403) but owns the client for a signed-in browser', async () => {
    const pat = await stack.admin.createPersonalAccessToken(person.userId, ['openid']);
    const refused = await register(
      { client_name: 'x', redirect_uris: [REDIRECT_URI] },
      { authorization: `Bearer ${pat}` },
    );
    expect(refused.status).toBe(403);

    const browser = new Browserless(stack.base);
    await browser.logIn(person.email);
    // A page of another site cannot register, change or delete clients with the browser's sign-in.
    const crossSite = await browser.request('POST', '/v1/oauth2/register', {
      json: { client_name: 'Theirs', redirect_uris: [REDIRECT_URI] },
      headers: { origin: 'https://evil.example' },
    });
    expect([crossSite.status, crossSite.body.error]).toEqual([403, 'NotPermitted']);
    const owned = await browser.request('POST', '/v1/oauth2/register', {
      json: { client_name: 'Mine', redirect_uris: [REDIRECT_URI] },
      headers: { origin: new URL(stack.base).origin },
    });
    expect(owned.status).toBe(201);
    const read = await browser.get(`/v1/oauth2/register/${owned.body.client_id}`);
    expect(read.status).toBe(200);
    expect(read.body.client_name).toBe('Mine');
    for (const [method, json] of [
      ['PUT', { client_id: owned.body.client_id, client_name: 'Renamed', redirect_uris: [REDIRECT_URI] }],
      ['DELETE', undefined],
    ] as const) {
      const refused = await browser.request(method, `/v1/oauth2/register/${owned.body.client_id}`, {
        json,
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      });
      expect([method, refused.status]).toEqual([method, 403]);
    }
    expect((await browser.get(`/v1/oauth2/register/${owned.body.client_id}`)).body.client_name).toBe('Mine');
    // Someone else's browser cannot.
    const stranger = await createPerson(stack);
    const other = new Browserless(stack.base);
    await other.logIn(stranger.email);
    expect((await other.get(`/v1/oauth2/register/${owned.body.client_id}`)).status).toBe(401);
  });
});

describe('client management (RFC 7592)', () => {
  it('reads, updates and deletes with the registration access token only', async () => {
    const client = await registerClient(stack, { scope: 'openid' });
    const auth = { authorization: `Bearer ${client.registration_access_token}` };
    const http = new Browserless(stack.base);

    const read = await http.get(`/v1/oauth2/register/${client.client_id}`, auth);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ client_id: client.client_id, client_name: 'Test client', scope: 'openid' });
    expect(read.body).not.toHaveProperty('client_secret');
    expect(read.body).not.toHaveProperty('registration_access_token');

    for (const bad of [
      {},
      { authorization: 'Bearer polar_crt_wrong' },
      { authorization: `Bearer ${client.client_secret}` },
    ] as Record<string, string>[]) {
      const response = await http.get(`/v1/oauth2/register/${client.client_id}`, bad);
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_token');
    }

    const noId = await http.request('PUT', `/v1/oauth2/register/${client.client_id}`, {
      json: { client_name: 'Renamed', redirect_uris: [REDIRECT_URI] },
      headers: auth,
    });
    expect(noId.status).toBe(400);
    expect(noId.body.error).toBe('invalid_client_metadata');

    const updated = await http.request('PUT', `/v1/oauth2/register/${client.client_id}`, {
      json: {
        client_id: client.client_id,
        client_name: 'Renamed',
        redirect_uris: ['https://client.example/new'],
        scope: 'openid email',
      },
      headers: auth,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      client_name: 'Renamed',
      redirect_uris: ['https://client.example/new'],
      scope: 'openid email',
    });
    expect(updated.body.modified_at).not.toBeNull();

    const badUri = await http.request('PUT', `/v1/oauth2/register/${client.client_id}`, {
      json: { client_id: client.client_id, client_name: 'x', redirect_uris: ['http://evil.example/'] },
      headers: auth,
    });
    expect(badUri.body.error).toBe('invalid_redirect_uri');

    const deleted = await http.request('DELETE', `/v1/oauth2/register/${client.client_id}`, { headers: auth });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await http.get(`/v1/oauth2/register/${client.client_id}`, auth)).status).toBe(401);
    // A deleted client cannot start a flow any more.
    const flow = await http.get(
      `/oauth2/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=${encodeURIComponent('https://client.example/new')}`,
    );
    expect(flow.status).toBe(400);
  });
});
