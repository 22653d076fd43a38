// RFC 6819 §5.1.4.1.3 and §5.2.3.x, RFC 9700 §2.x (token entropy, RFC 6749 §10.10): credentials are
// high-entropy and stored only as hashes — authorization codes, access and refresh tokens, client
// secrets and registration access tokens appear nowhere in the database in the clear, and the id_token
// signing keys' private halves are encrypted.
import { hashToken } from '../../../kit/tokens.js';
import { TEST_SECRET } from '../../support/stack.js';
import {
  Browserless,
  codeFor,
  createPerson,
  postAuth,
  REDIRECT_URI,
  registerClient,
  startOAuthStack,
  tableRows,
  tokenRequest,
  type OAuthStack,
} from '../support.js';

let stack: OAuthStack;

beforeAll(async () => {
  stack = await startOAuthStack('storage');
});
afterAll(async () => {
  await stack?.close();
});

describe('what the oauth tables hold', () => {
  it('only hashes of every credential, and an encrypted private key', async () => {
    const person = await createPerson(stack);
    const client = await registerClient(stack, { scope: 'openid email organizations:read' });
    const browser = new Browserless(stack.base);
    await browser.logIn(person.email);
    const { code, verifier } = await codeFor(browser, client, {}, {});
    const tokens = await tokenRequest(stack, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...postAuth(client),
    });
    const refreshed = await tokenRequest(stack, {
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      ...postAuth(client),
    });
    expect(refreshed.status).toBe(200);

    const secrets = [
      code,
      tokens.body.access_token,
      tokens.body.refresh_token,
      refreshed.body.access_token,
      refreshed.body.refresh_token,
      client.client_secret!,
      client.registration_access_token,
    ];
    const everything: string[] = [];
    for (const table of [
      'oauth2_clients',
      'oauth2_authorization_codes',
      'oauth2_tokens',
      'oauth2_grants',
      'oauth2_signing_keys',
    ])
      everything.push(...(await tableRows(stack, table)));
    const dump = everything.join('\n');
    for (const secret of secrets) expect(dump).not.toContain(secret);
    expect(dump).not.toMatch(/polar_(ac|at_u|at_o|rt_u|rt_o|cs|crt)_/);
    // …but their HMACs are there, which is how they are found.
    for (const secret of secrets) expect(dump).toContain(hashToken(secret, TEST_SECRET));
    // The public client_id is an identifier, not a secret.
    expect(dump).toContain(client.client_id);

    const keys = (await tableRows(stack, 'oauth2_signing_keys')).map(r => JSON.parse(r));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.public_jwk).not.toHaveProperty('d');
      expect(key.private_jwk_encrypted).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(key.private_jwk_encrypted).not.toContain('"d"');
    }
  });

  it('issues credentials with at least 160 random bits (37 base62 characters ≈ 220 bits)', async () => {
    const client = await registerClient(stack);
    for (const value of [client.client_id, client.client_secret!, client.registration_access_token]) {
      expect(value).toMatch(/^polar_[a-z_]+_[0-9A-Za-z]{43}$/);
      expect(37 * Math.log2(62)).toBeGreaterThan(160);
    }
  });
});
