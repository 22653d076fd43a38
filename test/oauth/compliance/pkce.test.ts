// RFC 7636 §4 (PKCE) and RFC 9700 §2.1.1 / §4.8: PKCE is mandatory for public clients, the verifier is
// enforced whenever a challenge was sent, a verifier on a code issued without a challenge is refused
// (downgrade), and a failed verification consumes the code.
import { createHash } from 'node:crypto';
import {
  Browserless,
  codeFor,
  createPerson,
  authorizePath,
  pkcePair,
  postAuth,
  REDIRECT_URI,
  registerClient,
  startOAuthStack,
  tokenRequest,
  type OAuthStack,
  type RegisteredClient,
} from '../support.js';

let stack: OAuthStack;
let browser: Browserless;
let confidential: RegisteredClient;
let publicClient: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('pkce');
  const person = await createPerson(stack);
  confidential = await registerClient(stack, { scope: 'openid' });
  publicClient = await registerClient(stack, { scope: 'openid', token_endpoint_auth_method: 'none' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const exchange = (client: RegisteredClient, code: string, extra: Record<string, string> = {}) =>
  tokenRequest(stack, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    ...postAuth(client),
    ...extra,
  });

describe('PKCE', () => {
  it('advertises S256 (and plain) in discovery', async () => {
    const metadata = (await (await fetch(`${stack.base}/.well-known/openid-configuration`)).json()) as {
      code_challenge_methods_supported: string[];
    };
    expect(metadata.code_challenge_methods_supported).toEqual(expect.arrayContaining(['S256', 'plain']));
  });

  it('requires a code_challenge from a public client', async () => {
    const response = await browser.get(
      authorizePath({
        response_type: 'code',
        client_id: publicClient.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        state: 's',
      }),
    );
    expect(response.status).toBe(302);
    const location = new URL(response.location!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('exchanges with the right verifier (S256) for a public client', async () => {
    const { code, verifier } = await codeFor(browser, publicClient);
    const response = await exchange(publicClient, code, { code_verifier: verifier });
    expect(response.status).toBe(200);
  });

  it('refuses a wrong or missing verifier, and the code is spent afterwards', async () => {
    for (const wrong of [{ code_verifier: pkcePair().verifier }, {}] as Record<string, string>[]) {
      const { code, verifier } = await codeFor(browser, confidential);
      const refused = await exchange(confidential, code, wrong);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
      const retry = await exchange(confidential, code, { code_verifier: verifier });
      expect(retry.body.error).toBe('invalid_grant');
    }
  });

  it('refuses a verifier on a code issued without a challenge (downgrade)', async () => {
    const { code } = await codeFor(browser, confidential, {
      code_challenge: undefined,
      code_challenge_method: undefined,
    });
    const response = await exchange(confidential, code, { code_verifier: pkcePair().verifier });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_grant');
  });

  it('lets a confidential client skip PKCE entirely', async () => {
    const { code } = await codeFor(browser, confidential, {
      code_challenge: undefined,
      code_challenge_method: undefined,
    });
    expect((await exchange(confidential, code)).status).toBe(200);
  });

  it('accepts the plain method, and treats a challenge without a method as plain (RFC 7636 §4.3)', async () => {
    const verifier = pkcePair().verifier;
    for (const method of ['plain', undefined]) {
      const { code } = await codeFor(browser, confidential, {
        code_challenge: verifier,
        code_challenge_method: method,
      });
      expect((await exchange(confidential, code, { code_verifier: verifier })).status).toBe(200);
    }
  });

  it('refuses a challenge that is not 43 to 128 unreserved characters', async () => {
    const response = await browser.get(
      authorizePath({
        response_type: 'code',
        client_id: confidential.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        code_challenge: 'short',
        code_challenge_method: 'S256',
      }),
    );
    expect(new URL(response.location!).searchParams.get('error')).toBe('invalid_request');
    // An S256 challenge is base64url of a SHA-256: exactly 43 characters.
    expect(createHash('sha256').update('x').digest('base64url')).toHaveLength(43);
  });
});
