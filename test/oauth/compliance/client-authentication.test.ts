// RFC 6749 §2.3.1, §3.2.1 and §5.2 (client authentication at the token endpoint; error responses),
// RFC 9700 §2.5: a client authenticates with exactly the method it registered (client_secret_basic,
// client_secret_post, or none for public clients); the token response is JSON and never cached.
import {
  Browserless,
  codeFor,
  createPerson,
  REDIRECT_URI,
  registerClient,
  startOAuthStack,
  tokenRequest,
  type OAuthStack,
  type RegisteredClient,
} from '../support.js';

let stack: OAuthStack;
let browser: Browserless;
let basic: RegisteredClient;
let post: RegisteredClient;
let publicClient: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('client_auth');
  const person = await createPerson(stack);
  basic = await registerClient(stack, { scope: 'openid', token_endpoint_auth_method: 'client_secret_basic' });
  post = await registerClient(stack, { scope: 'openid', token_endpoint_auth_method: 'client_secret_post' });
  publicClient = await registerClient(stack, { scope: 'openid', token_endpoint_auth_method: 'none' });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

async function attempt(
  client: RegisteredClient,
  auth: { basic?: { id: string; secret: string }; form?: Record<string, string> },
) {
  const { code, verifier } = await codeFor(browser, client);
  return tokenRequest(
    stack,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...(auth.form ?? {}),
    },
    auth.basic,
  );
}

describe('client authentication at the token endpoint', () => {
  it('client_secret_basic works, and the answer is JSON with no-store', async () => {
    const response = await attempt(basic, { basic: { id: basic.client_id, secret: basic.client_secret! } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(Object.keys(response.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'id_token',
      'refresh_token',
      'scope',
      'token_type',
    ]);
  });

  it('client_secret_post works', async () => {
    const response = await attempt(post, { form: { client_id: post.client_id, client_secret: post.client_secret! } });
    expect(response.status).toBe(200);
  });

  it('none works for a public client with PKCE', async () => {
    const response = await attempt(publicClient, { form: { client_id: publicClient.client_id } });
    expect(response.status).toBe(200);
  });

  it('a wrong secret over Basic is 401 invalid_client with WWW-Authenticate', async () => {
    const response = await attempt(basic, { basic: { id: basic.client_id, secret: post.client_secret! } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    [
      'the basic client posting its secret in the body',
      () => ({ client: basic, auth: { form: { client_id: basic.client_id, client_secret: basic.client_secret! } } }),
    ],
    [
      'the post client using Basic',
      () => ({ client: post, auth: { basic: { id: post.client_id, secret: post.client_secret! } } }),
    ],
    [
      'a confidential client sending no secret',
      () => ({ client: post, auth: { form: { client_id: post.client_id } } }),
    ],
    [
      'a public client sending a secret',
      () => ({
        client: publicClient,
        auth: { form: { client_id: publicClient.client_id, client_secret: post.client_secret! } },
      }),
    ],
    [
      'an unknown client',
      () => ({ client: post, auth: { form: { client_id: 'polar_ci_nobody', client_secret: post.client_secret! } } }),
    ],
  ])('refuses %s with invalid_client', async (_label, make) => {
    const { client, auth } = make();
    const response = await attempt(client, auth);
    expect(response.status).toBe(401);
    expect(response.body.error).toBe('invalid_client');
  });

  it('refuses two authentication methods at once (RFC 6749 §2.3)', async () => {
    const response = await attempt(basic, {
      basic: { id: basic.client_id, secret: basic.client_secret! },
      form: { client_secret: basic.client_secret! },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
  });

  it('answers OAuth errors for bad requests: unsupported grant types, missing parameters, non-form bodies', async () => {
    const auth = { client_id: post.client_id, client_secret: post.client_secret! };
    for (const [form, error] of [
      [{ grant_type: 'password', username: 'a', password: 'b', ...auth }, 'unsupported_grant_type'],
      [{ grant_type: 'client_credentials', ...auth }, 'unsupported_grant_type'],
      [{ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', ...auth }, 'unsupported_grant_type'],
      [{ ...auth }, 'invalid_request'],
      [{ grant_type: 'authorization_code', ...auth }, 'invalid_request'],
    ] as const) {
      const response = await tokenRequest(stack, form as Record<string, string>);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(error);
    }
    const json = await fetch(`${stack.base}/v1/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', ...auth }),
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
  });
});
