// RFC 6749 §3.1.2 and §4.1.2.1, RFC 9700 §2.1 / §4.1 (exact redirect URI matching, no open redirector,
// 303 after a form post, no CORS and no framing on the authorization endpoint) and RFC 8252 §7.3
// (any port on a loopback IP redirect URI of a client registered as a native app, OIDC Registration §2
// `application_type`; a web client, the default, matches exactly).
import {
  authorizePath,
  Browserless,
  codeFor,
  createPerson,
  hiddenInputsOf,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  startOAuthStack,
  type OAuthStack,
  type RegisteredClient,
} from '../support.js';

let stack: OAuthStack;
let browser: Browserless;
let client: RegisteredClient;
let nativeApp: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('redirect');
  const person = await createPerson(stack);
  client = await registerClient(stack, {
    scope: 'openid email',
    redirect_uris: [REDIRECT_URI, 'http://127.0.0.1/native', 'https://client.example/with?query=1'],
  });
  nativeApp = await registerClient(stack, {
    scope: 'openid email',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    redirect_uris: ['http://127.0.0.1/native', 'http://[::1]:7000/v6'],
  });
  browser = new Browserless(stack.base);
  await browser.logIn(person.email);
});
afterAll(async () => {
  await stack?.close();
});

const base = () => ({
  response_type: 'code',
  client_id: client.client_id,
  scope: 'openid',
  state: 'xyz',
  code_challenge: pkcePair().challenge,
  code_challenge_method: 'S256',
});

describe('redirect URI matching (RFC 9700 §4.1.3: exact string comparison)', () => {
  it.each([
    ['a different path', 'https://client.example/callback/other'],
    ['a prefix only', 'https://client.example/call'],
    ['a trailing slash', 'https://client.example/callback/'],
    ['another scheme', 'http://client.example/callback'],
    ['different letter case', 'https://client.example/Callback'],
    ['an added query', 'https://client.example/callback?x=1'],
    ['a fragment', 'https://client.example/callback#x'],
    ['another host', 'https://evil.example/callback'],
    ['user info', 'https://client.example@evil.example/callback'],
    ['a port on a non-loopback URI', 'https://client.example:8443/callback'],
  ])('shows an error page and never redirects for %s', async (_label, redirectUri) => {
    const response = await browser.get(authorizePath({ ...base(), redirect_uri: redirectUri }));
    expect(response.status).toBe(400);
    expect(response.location).toBeNull();
    expect(response.text).toContain('redirect_uri');
  });

  it('shows an error page for an unknown client or a missing redirect_uri', async () => {
    for (const params of [
      { ...base(), client_id: 'polar_ci_unknown', redirect_uri: REDIRECT_URI },
      { ...base(), redirect_uri: undefined },
      { ...base(), client_id: undefined, redirect_uri: REDIRECT_URI },
    ]) {
      const response = await browser.get(authorizePath(params));
      expect(response.status).toBe(400);
      expect(response.location).toBeNull();
    }
  });

  it('accepts the registered URI exactly, keeping its own query', async () => {
    const { callback } = await codeFor(browser, client, { redirect_uri: 'https://client.example/with?query=1' });
    expect(callback.origin + callback.pathname).toBe('https://client.example/with');
    expect(callback.searchParams.get('query')).toBe('1');
  });

  it('holds a web client (the default) to its registered loopback URI exactly: no other port', async () => {
    const { callback } = await codeFor(browser, client, { redirect_uri: 'http://127.0.0.1/native' });
    expect(callback.origin + callback.pathname).toBe('http://127.0.0.1/native');
    for (const redirectUri of ['http://127.0.0.1:51234/native', 'http://127.0.0.1:80/native']) {
      const response = await browser.get(authorizePath({ ...base(), redirect_uri: redirectUri }));
      expect(response.status).toBe(400);
      expect(response.location).toBeNull();
    }
  });

  it('accepts any port on a loopback IP redirect URI of a native app (RFC 8252 §7.3), nothing else differing', async () => {
    const { callback } = await codeFor(browser, nativeApp, { redirect_uri: 'http://127.0.0.1:51234/native' });
    expect(callback.host).toBe('127.0.0.1:51234');
    const v6 = await codeFor(browser, nativeApp, { redirect_uri: 'http://[::1]:51235/v6' });
    expect(v6.callback.host).toBe('[::1]:51235');
    const native = { ...base(), client_id: nativeApp.client_id };
    for (const redirectUri of [
      'http://127.0.0.1:51234/native/x',
      'http://localhost:51234/native',
      'http://[::1]:51234/native',
      'https://127.0.0.1:51234/native',
    ]) {
      const response = await browser.get(authorizePath({ ...native, redirect_uri: redirectUri }));
      expect(response.status).toBe(400);
      expect(response.location).toBeNull();
    }
  });
});

describe('errors once the redirect URI is trusted go back to it (RFC 6749 §4.1.2.1)', () => {
  it.each([
    ['unsupported_response_type', { response_type: 'token' }],
    ['invalid_request', { response_type: undefined }],
    ['invalid_scope', { scope: 'openid products:write' }],
    ['invalid_scope', { scope: 'openid not-a-scope' }],
    ['invalid_request', { code_challenge_method: 'S512' }],
    ['invalid_request', { sub_type: 'robot' }],
    ['invalid_request', { prompt: 'none login' }],
    ['request_not_supported', { request: 'eyJ.x.y' }],
  ])('%s for %j, with state and iss', async (error, overrides) => {
    const response = await browser.get(authorizePath({ ...base(), redirect_uri: REDIRECT_URI, ...overrides }));
    expect(response.status).toBe(302);
    const location = new URL(response.location!);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.get('iss')).toBe(stack.base);
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses repeated parameters (RFC 6749 §3.1)', async () => {
    const path = `${authorizePath({ ...base(), redirect_uri: REDIRECT_URI })}&scope=email`;
    const response = await browser.get(path);
    expect(new URL(response.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('answers Deny with access_denied, through a 303 (RFC 9700 §4.12)', async () => {
    const page = await browser.get(authorizePath({ ...base(), redirect_uri: REDIRECT_URI, prompt: 'consent' }));
    expect(page.status).toBe(200);
    const posted = await browser.request('POST', '/oauth2/consent', {
      form: { ...hiddenInputsOf(page.text), action: 'deny' },
    });
    expect(posted.status).toBe(303);
    const location = new URL(posted.location!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('xyz');
  });

  it('redirects the code after Allow with 303 too', async () => {
    const page = await browser.get(authorizePath({ ...base(), redirect_uri: REDIRECT_URI, prompt: 'consent' }));
    const posted = await browser.request('POST', '/oauth2/consent', {
      form: { ...hiddenInputsOf(page.text), action: 'allow' },
    });
    expect(posted.status).toBe(303);
    expect(new URL(posted.location!).searchParams.get('code')).toMatch(/^polar_ac_/);
  });
});

describe('the authorization page itself (RFC 9700 §4.16, §4.11)', () => {
  it('sends no CORS headers and forbids framing', async () => {
    const response = await browser.get(authorizePath({ ...base(), redirect_uri: REDIRECT_URI, prompt: 'consent' }), {
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses a consent post without the CSRF token', async () => {
    const page = await browser.get(authorizePath({ ...base(), redirect_uri: REDIRECT_URI, prompt: 'consent' }));
    const form = { ...hiddenInputsOf(page.text), action: 'allow' };
    delete (form as Record<string, string>).csrf_token;
    const posted = await browser.request('POST', '/oauth2/consent', { form });
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
  });

  it('re-validates a tampered consent form: a foreign redirect_uri is not followed', async () => {
    const page = await browser.get(authorizePath({ ...base(), redirect_uri: REDIRECT_URI, prompt: 'consent' }));
    const posted = await browser.request('POST', '/oauth2/consent', {
      form: { ...hiddenInputsOf(page.text), redirect_uri: 'https://evil.example/cb', action: 'allow' },
    });
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
  });
});
