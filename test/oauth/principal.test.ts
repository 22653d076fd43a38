import {
  Browserless,
  bearerGet,
  createPerson,
  registerClient,
  startOAuthStack,
  tokensFor,
  type OAuthStack,
  type Person,
  type RegisteredClient,
} from './support.js';

/**
 * OAuth access tokens on the /v1 API and /graphql (docs/polar/auth.md#bearer-resolution): `polar_at_u_` acts for the user
 * who consented (their memberships, the token's scopes), `polar_at_o_` for the one organization chosen
 * on the consent page, and user-only endpoints (POST /v1/organizations/) refuse organization tokens.
 */
let stack: OAuthStack;
let person: Person;
let browser: Browserless;
let client: RegisteredClient;
let second: { id: string };

beforeAll(async () => {
  stack = await startOAuthStack('principal');
  person = await createPerson(stack);
  second = await stack.admin.createOrganization(person.email, 'Second', `second-${Date.now()}`);
  client = await registerClient(stack, { scope: 'openid organizations:read organizations:write' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const post = (path: string, token: string, body: unknown) =>
  new Browserless(stack.base).request('POST', path, { json: body, headers: { authorization: `Bearer ${token}` } });

describe('OAuth tokens as API credentials', () => {
  it('a user token acts for the user with its scopes', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'organizations:read' });
    const list = await bearerGet(stack, '/v1/organizations/', tokens.access_token);
    expect(list.status).toBe(200);
    expect(list.body.items.map((o: { id: string }) => o.id).sort()).toEqual([person.organizationId, second.id].sort());
    const create = await post('/v1/organizations/', tokens.access_token, {
      name: 'Third',
      slug: `third-${Date.now()}`,
    });
    expect(create.status).toBe(403);
    expect(create.body.error).toBe('insufficient_scope');

    const writer = await tokensFor(stack, browser, client, { scope: 'organizations:write' });
    const created = await post('/v1/organizations/', writer.access_token, {
      name: 'Third',
      slug: `third-${Date.now()}`,
    });
    expect(created.status).toBe(201);
  });

  it('an organization token acts for the chosen organization only, and user-only endpoints refuse it', async () => {
    const tokens = await tokensFor(
      stack,
      browser,
      client,
      { scope: 'organizations:read organizations:write', sub_type: 'organization' },
      { organizationId: second.id },
    );
    expect(tokens.access_token).toMatch(/^polar_at_o_/);
    const list = await bearerGet(stack, '/v1/organizations/', tokens.access_token);
    expect(list.body.items.map((o: { id: string }) => o.id)).toEqual([second.id]);
    expect((await bearerGet(stack, `/v1/organizations/${person.organizationId}`, tokens.access_token)).status).toBe(
      404,
    );
    const create = await post('/v1/organizations/', tokens.access_token, { name: 'Nope', slug: `nope-${Date.now()}` });
    expect(create.status).toBe(401);

    const graphql = await post('/graphql', tokens.access_token, { query: '{ organizations { items { id } } }' });
    expect(graphql.body.data.organizations.items).toEqual([{ id: second.id }]);
  });

  it('refuses an organization the person does not belong to on the consent form', async () => {
    const stranger = await createPerson(stack);
    await expect(
      tokensFor(
        stack,
        browser,
        client,
        { scope: 'organizations:read', sub_type: 'organization' },
        { organizationId: stranger.organizationId },
      ),
    ).rejects.toThrow(/consent answered 400/);
  });

  it('a polar_at_u_ and polar_at_o_ prefix must match the kind of token stored', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'organizations:read' });
    const swapped = tokens.access_token.replace('polar_at_u_', 'polar_at_o_');
    expect((await bearerGet(stack, '/v1/organizations/', swapped)).status).toBe(401);
  });
});
