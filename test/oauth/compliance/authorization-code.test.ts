// RFC 6749 §4.1.2 and §10.5, RFC 9700 §4.2.4 / §2.1.1: an authorization code is short-lived, single
// use, bound to the client and the redirect URI; a second redemption is refused and revokes every
// token issued from the code. Concurrent redemptions: exactly one wins (docs/reliability.md#single-use-oauth-credentials).
import pg from 'pg';
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
  type OAuthStack,
  type RegisteredClient,
} from '../support.js';
import { hashToken } from '../../../kit/tokens.js';
import { TEST_SECRET } from '../../support/stack.js';

let stack: OAuthStack;
let browser: Browserless;
let client: RegisteredClient;
let other: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('code');
  const person = await createPerson(stack);
  client = await registerClient(stack, {
    scope: 'openid organizations:read',
    redirect_uris: [REDIRECT_URI, 'https://client.example/second'],
  });
  other = await registerClient(stack, { scope: 'openid organizations:read' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const redeem = (c: RegisteredClient, code: string, verifier: string, redirectUri = REDIRECT_URI) =>
  tokenRequest(stack, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    ...postAuth(c),
  });

describe('authorization codes', () => {
  it('look like polar_ac_ tokens and live five minutes', async () => {
    const { code } = await codeFor(browser, client);
    expect(code).toMatch(/^polar_ac_[0-9A-Za-z]{43}$/);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const row = await db.query(
        'select extract(epoch from expires_at - created_at) as ttl from identity.oauth2_authorization_codes where code_hash = $1',
        [hashToken(code, TEST_SECRET)],
      );
      expect(Number(row.rows[0].ttl)).toBe(300);
    } finally {
      await db.end();
    }
  });

  it('are single use: a replay is invalid_grant and revokes the tokens the first use issued', async () => {
    const { code, verifier } = await codeFor(browser, client);
    const first = await redeem(client, code, verifier);
    expect(first.status).toBe(200);
    expect((await bearerGet(stack, '/v1/organizations/', first.body.access_token)).status).toBe(200);

    const replay = await redeem(client, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: 'invalid_grant' });

    expect((await bearerGet(stack, '/v1/organizations/', first.body.access_token)).status).toBe(401);
    const refresh = await tokenRequest(stack, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      ...postAuth(client),
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('let exactly one of two concurrent redemptions succeed', async () => {
    const { code, verifier } = await codeFor(browser, client);
    const results = await Promise.all([
      redeem(client, code, verifier),
      redeem(client, code, verifier),
      redeem(client, code, verifier),
    ]);
    expect(results.filter(r => r.status === 200)).toHaveLength(1);
    expect(results.filter(r => r.body.error === 'invalid_grant')).toHaveLength(2);
  });

  it('are bound to the client they were issued to', async () => {
    const { code, verifier } = await codeFor(browser, client);
    const stolen = await redeem(other, code, verifier);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('are bound to the redirect URI of the authorization request', async () => {
    const { code, verifier } = await codeFor(browser, client);
    const response = await redeem(client, code, verifier, 'https://client.example/second');
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
    const missing = await tokenRequest(stack, {
      grant_type: 'authorization_code',
      code: (await codeFor(browser, client)).code,
      ...postAuth(client),
    });
    expect(missing.status).toBe(400);
  });

  it('expire', async () => {
    const { code, verifier } = await codeFor(browser, client);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `update identity.oauth2_authorization_codes set expires_at = now() - interval '1 second' where code_hash = $1`,
        [hashToken(code, TEST_SECRET)],
      );
    } finally {
      await db.end();
    }
    const response = await redeem(client, code, verifier);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('refuse made-up and malformed codes', async () => {
    for (const code of ['polar_ac_0000000000000000000000000000000000000000000', 'nonsense', '']) {
      const response = await tokenRequest(stack, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        ...postAuth(client),
      });
      expect(response.status).toBe(400);
      expect(['invalid_grant', 'invalid_request']).toContain(response.body.error);
    }
  });
});
