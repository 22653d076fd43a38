// RFC 6749 §6 and RFC 9700 §4.14.2: refresh tokens rotate on every use; the used one is remembered, and
// presenting it again revokes the whole grant (every access and refresh token of the family). A
// refresh may narrow the scope, never widen it, and a refresh token is bound to its client.
import {
  bearerGet,
  Browserless,
  createPerson,
  postAuth,
  registerClient,
  startOAuthStack,
  tokenRequest,
  tokensFor,
  type OAuthStack,
  type RegisteredClient,
} from '../support.js';

let stack: OAuthStack;
let browser: Browserless;
let client: RegisteredClient;
let other: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('refresh');
  const person = await createPerson(stack);
  client = await registerClient(stack, { scope: 'openid organizations:read organizations:write' });
  other = await registerClient(stack, { scope: 'openid organizations:read organizations:write' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const refresh = (c: RegisteredClient, token: string, extra: Record<string, string> = {}) =>
  tokenRequest(stack, { grant_type: 'refresh_token', refresh_token: token, ...postAuth(c), ...extra });

describe('refresh tokens', () => {
  it('rotate: each refresh returns a new refresh token and the old one stops working', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const first = await refresh(client, tokens.refresh_token);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'openid organizations:read organizations:write',
    });
    expect(first.body.refresh_token).toMatch(/^polar_rt_u_/);
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(first.body.id_token).toBeUndefined();
    const second = await refresh(client, first.body.refresh_token);
    expect(second.status).toBe(200);
  });

  it('reuse of a rotated refresh token revokes the whole family', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const rotated = await refresh(client, tokens.refresh_token);
    expect((await bearerGet(stack, '/v1/organizations/', rotated.body.access_token)).status).toBe(200);

    const reuse = await refresh(client, tokens.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');

    // The attacker's (or the victim's) newer tokens are gone too.
    expect((await refresh(client, rotated.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await bearerGet(stack, '/v1/organizations/', rotated.body.access_token)).status).toBe(401);
    expect((await bearerGet(stack, '/v1/organizations/', tokens.access_token)).status).toBe(401);
  });

  it('lets only one of two concurrent refreshes with the same token succeed', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const results = await Promise.all([refresh(client, tokens.refresh_token), refresh(client, tokens.refresh_token)]);
    expect(results.filter(r => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(results.some(r => r.body.error === 'invalid_grant')).toBe(true);
  });

  it('may narrow the scope but not widen it', async () => {
    const tokens = await tokensFor(stack, browser, client, { scope: 'openid organizations:read' });
    const wider = await refresh(client, tokens.refresh_token, {
      scope: 'openid organizations:read organizations:write',
    });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    const narrower = await refresh(client, tokens.refresh_token, { scope: 'organizations:read' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('organizations:read');
  });

  it('are bound to their client', async () => {
    const tokens = await tokensFor(stack, browser, client);
    const stolen = await refresh(other, tokens.refresh_token);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
    expect((await refresh(client, tokens.refresh_token)).status).toBe(200);
  });

  it('are not accepted as access tokens, nor access tokens as refresh tokens', async () => {
    const tokens = await tokensFor(stack, browser, client);
    expect((await bearerGet(stack, '/v1/organizations/', tokens.refresh_token)).status).toBe(401);
    expect((await refresh(client, tokens.access_token)).body.error).toBe('invalid_grant');
  });
});
