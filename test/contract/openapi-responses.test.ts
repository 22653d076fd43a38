import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import {
  Browserless,
  bearerGet,
  createPerson,
  type OAuthStack,
  type Person,
  postAuth,
  type RegisteredClient,
  registerClient,
  startOAuthStack,
  tokenRequest,
  tokensFor,
} from '../oauth/support.js';

/**
 * What the OAuth 2.0 / OIDC endpoints and the service endpoints really answer is what /openapi.json
 * says: each status is documented for its operation, and each body validates against the documented
 * schema (JSON Schema 2020-12, with Ajv). The route table's answers are checked by the fuzz test.
 */
jest.setTimeout(90_000);

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

let stack: OAuthStack;
let person: Person;
let browser: Browserless;
let client: RegisteredClient;
let document: any;
let ajv: Ajv2020;

beforeAll(async () => {
  stack = await startOAuthStack('openapi_responses');
  person = await createPerson(stack);
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
  client = await registerClient(stack, { scope: 'openid email organizations:read' });
  document = (await browser.get('/openapi.json')).body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
});
afterAll(async () => {
  await stack?.close();
});

const pointer = (...keys: string[]) => keys.map(k => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Fails unless `answer` is a documented response of `method path`, with a body its schema accepts. */
function expectDocumented(method: string, path: string, answer: Answer): void {
  const operation = document.paths[path]?.[method];
  expect({ operation: `${method} ${path}`, documented: !!operation }).toEqual({
    operation: `${method} ${path}`,
    documented: true,
  });
  const declared = operation.responses[String(answer.status)];
  expect({ operation: `${method} ${path}`, status: answer.status, documented: !!declared }).toEqual({
    operation: `${method} ${path}`,
    status: answer.status,
    documented: true,
  });
  let location = ['paths', path, method, 'responses', String(answer.status)];
  let response = declared;
  if (declared.$ref) {
    location = declared.$ref.slice(2).split('/');
    response = location.reduce((node: any, key: string) => node[key], document);
  }
  const type = answer.headers.get('content-type') ?? '';
  if (response.headers?.Location) {
    // A redirect: what counts is where it goes (Express adds a short text body for old browsers).
    expect(answer.headers.get('location')).toBeTruthy();
    return;
  }
  if (!response.content) {
    expect(answer.text).toBe('');
    return;
  }
  if (response.content['text/html']) {
    expect(type).toMatch(/^text\/html/);
    return;
  }
  expect(type).toMatch(/^application\/json/);
  const validate = ajv.getSchema(`openapi.json#/${pointer(...location, 'content', 'application/json', 'schema')}`)!;
  const valid = validate(answer.body);
  expect({ operation: `${method} ${path} ${answer.status}`, errors: valid ? null : validate.errors }).toEqual({
    operation: `${method} ${path} ${answer.status}`,
    errors: null,
  });
}

const anonymous = () => new Browserless(stack.base);

/** A request whose body is sent as is (Browserless encodes what it is given). */
async function raw(method: string, path: string, contentType: string, body: string): Promise<Answer> {
  const response = await fetch(`${stack.base}${path}`, { method, headers: { 'content-type': contentType }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
}

describe('OAuth 2.0 / OIDC answers match the document', () => {
  it('discovery and keys', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const answer = await anonymous().get(path);
      expect(answer.status).toBe(200);
      expectDocumented('get', path, answer);
      expectDocumented('get', path, await anonymous().get(path, { authorization: 'Bearer not-a-token' }));
      expectDocumented('get', path, await anonymous().get(path, { 'polar-version': '1999-01' }));
    }
    const keys = await anonymous().get('/.well-known/jwks.json');
    expect(keys.body.keys.length).toBeGreaterThan(0);
    expectDocumented('get', '/.well-known/jwks.json', keys);
  });

  it('client registration and management', async () => {
    const registered = await anonymous().request('POST', '/v1/oauth2/register', {
      json: { client_name: 'Schema client', redirect_uris: ['https://client.example/cb'], logo_uri: null },
    });
    expect(registered.status).toBe(201);
    expectDocumented('post', '/v1/oauth2/register', registered);
    const publicClient = await anonymous().request('POST', '/v1/oauth2/register', {
      json: { client_name: 'Public', redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' },
    });
    expect(publicClient.body.client_secret).toBeUndefined();
    expectDocumented('post', '/v1/oauth2/register', publicClient);
    const invalid = await anonymous().request('POST', '/v1/oauth2/register', { json: { client_name: 'x' } });
    expect(invalid.status).toBe(400);
    expectDocumented('post', '/v1/oauth2/register', invalid);
    const pat = await stack.admin.createPersonalAccessToken(person.userId, ['openid']);
    const withPat = await anonymous().request('POST', '/v1/oauth2/register', {
      json: { client_name: 'x', redirect_uris: ['https://client.example/cb'] },
      headers: { authorization: `Bearer ${pat}` },
    });
    expect(withPat.status).toBe(403);
    expectDocumented('post', '/v1/oauth2/register', withPat);
    const notJson = await raw('POST', '/v1/oauth2/register', 'application/json', '{"client_name":');
    expect(notJson.status).toBe(422);
    expectDocumented('post', '/v1/oauth2/register', notJson);

    const path = '/v1/oauth2/register/{client_id}';
    const at = `/v1/oauth2/register/${registered.body.client_id}`;
    const auth = { authorization: `Bearer ${registered.body.registration_access_token}` };
    const read = await anonymous().get(at, auth);
    expect(read.status).toBe(200);
    expectDocumented('get', path, read);
    const wrongToken = await anonymous().get(at, { authorization: `Bearer ${client.registration_access_token}` });
    expect(wrongToken.status).toBe(401);
    expectDocumented('get', path, wrongToken);
    const update = await anonymous().request('PUT', at, {
      json: { ...read.body, client_name: 'Renamed', client_secret: undefined, client_uri: 'https://client.example' },
      headers: auth,
    });
    expect(update.status).toBe(200);
    expectDocumented('put', path, update);
    const badUpdate = await anonymous().request('PUT', at, { json: { client_name: 'Renamed' }, headers: auth });
    expect(badUpdate.status).toBe(400);
    expectDocumented('put', path, badUpdate);
    const deleted = await anonymous().request('DELETE', at, { headers: auth });
    expect(deleted.status).toBe(204);
    expectDocumented('delete', path, deleted);
  });

  it('authorization page, token, introspection, userinfo and revocation', async () => {
    const page = await browser.get(
      `/oauth2/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=https://client.example/callback&scope=openid`,
    );
    expect(page.status).toBe(200);
    expectDocumented('get', '/oauth2/authorize', page);
    const signedOut = await anonymous().get(
      `/v1/oauth2/authorize?response_type=code&client_id=${client.client_id}&redirect_uri=https://client.example/callback`,
    );
    expect(signedOut.status).toBe(303);
    expectDocumented('get', '/v1/oauth2/authorize', signedOut);
    const unknownClient = await browser.get('/oauth2/authorize?response_type=code&client_id=nobody');
    expect(unknownClient.status).toBe(400);
    expectDocumented('get', '/oauth2/authorize', unknownClient);

    const tokens = await tokensFor(stack, browser, client);
    expect(tokens.id_token).toBeDefined();
    const token = '/v1/oauth2/token';
    const refreshed = await tokenRequest(stack, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      ...postAuth(client),
    });
    expect(refreshed.status).toBe(200);
    expectDocumented('post', token, refreshed);
    const badGrant = await tokenRequest(stack, { grant_type: 'authorization_code', code: 'nope', ...postAuth(client) });
    expect(badGrant.status).toBe(400);
    expectDocumented('post', token, badGrant);
    const badClient = await tokenRequest(
      stack,
      { grant_type: 'refresh_token', refresh_token: 'x' },
      {
        id: client.client_id,
        secret: 'wrong',
      },
    );
    expect(badClient.status).toBe(401);
    expectDocumented('post', token, badClient);
    const notForm = await raw('POST', token, 'application/json', '{"grant_type":');
    expect(notForm.status).toBe(422);
    expectDocumented('post', token, notForm);

    const introspect = '/v1/oauth2/introspect';
    const credentials = postAuth(client);
    for (const value of [refreshed.body.access_token, refreshed.body.refresh_token, 'polar_at_u_unknown']) {
      const answer = await anonymous().request('POST', introspect, { form: { token: value, ...credentials } });
      expect(answer.status).toBe(200);
      expectDocumented('post', introspect, answer);
    }
    const noToken = await anonymous().request('POST', introspect, { form: credentials });
    expect(noToken.status).toBe(400);
    expectDocumented('post', introspect, noToken);
    const unauthenticated = await anonymous().request('POST', introspect, { form: { token: 'x' } });
    expect(unauthenticated.status).toBe(401);
    expectDocumented('post', introspect, unauthenticated);

    const userinfo = '/v1/oauth2/userinfo';
    const claims = await bearerGet(stack, userinfo, refreshed.body.access_token);
    expect(claims.status).toBe(200);
    expectDocumented('get', userinfo, claims);
    const posted = await anonymous().request('POST', userinfo, {
      headers: { authorization: `Bearer ${refreshed.body.access_token}` },
    });
    expectDocumented('post', userinfo, posted);
    expectDocumented('get', userinfo, await anonymous().get(userinfo));
    const withoutOpenid = await tokensFor(stack, browser, client, { scope: 'organizations:read' });
    const forbidden = await bearerGet(stack, userinfo, withoutOpenid.access_token);
    expect(forbidden.status).toBe(403);
    expectDocumented('get', userinfo, forbidden);

    const revoke = '/v1/oauth2/revoke';
    const revoked = await anonymous().request('POST', revoke, { form: { token: tokens.access_token, ...credentials } });
    expect(revoked.status).toBe(200);
    expectDocumented('post', revoke, revoked);
    const missing = await anonymous().request('POST', revoke, { form: credentials });
    expect(missing.status).toBe(400);
    expectDocumented('post', revoke, missing);
  });
});

describe('service answers match the document', () => {
  it('probes, the document itself and /graphql', async () => {
    expectDocumented('get', '/healthz', await anonymous().get('/healthz'));
    expectDocumented('get', '/readyz', await anonymous().get('/readyz'));
    expectDocumented('get', '/openapi.json', await anonymous().get('/openapi.json'));
    const query = await anonymous().request('POST', '/graphql', { json: { query: '{ __typename }' } });
    expect(query.status).toBe(200);
    expectDocumented('post', '/graphql', query);
    const broken = await anonymous().request('POST', '/graphql', { json: { query: '{' } });
    expect(broken.status).toBe(400);
    expectDocumented('post', '/graphql', broken);
    const badToken = await anonymous().request('POST', '/graphql', {
      json: { query: '{ __typename }' },
      headers: { authorization: 'Bearer polar_oat_nothing' },
    });
    expect(badToken.status).toBe(401);
    expectDocumented('post', '/graphql', badToken);
    // GET: the explorer for a browser, a 405 in the GraphQL shape for a program.
    const page = await anonymous().get('/graphql', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(page.status).toBe(200);
    expectDocumented('get', '/graphql', page);
    const program = await anonymous().get('/graphql', { accept: 'application/json' });
    expect([program.status, program.headers.get('allow')]).toEqual([405, 'POST']);
    expectDocumented('get', '/graphql', program);
  });
});
