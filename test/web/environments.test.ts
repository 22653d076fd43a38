import { createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { cookieLine, WebClient } from './client.js';

/**
 * Production and sandbox served on one host (127.0.0.1, two ports), browsed with one cookie jar as a
 * browser would: cookies ignore ports, so each environment names its own (`polar_session` /
 * `polar_sandbox_session`, `polar_csrf` / `polar_sandbox_csrf`) and signing in to one leaves the
 * other signed in.
 */
let stack: TestStack;
let production: Tenant;
let sandbox: Tenant;
const PASSWORD = 'correct horse battery'; // what createTenant gives its users

beforeAll(async () => {
  stack = await sharedTestStack();
  production = await createTenant(stack.production);
  sandbox = await createTenant(stack.sandbox);
  expect(new URL(stack.production.baseUrl).hostname).toBe(new URL(stack.sandbox.baseUrl).hostname);
});

describe('one browser, both environments', () => {
  it('stays signed in to both, each with its own cookies', async () => {
    const prod = new WebClient(stack.production.baseUrl);
    const box = new WebClient(stack.sandbox.baseUrl, prod.cookies);

    const prodLogin = await prod.logIn(production.email, PASSWORD);
    expect(prodLogin.status).toBe(303);
    expect(cookieLine(prodLogin, 'polar_session')).toMatch(/^polar_session=polar_us_/);
    const boxLogin = await box.logIn(sandbox.email, PASSWORD);
    expect(boxLogin.status).toBe(303);
    expect(cookieLine(boxLogin, 'polar_sandbox_session')).toMatch(/^polar_sandbox_session=polar_us_/);
    expect(cookieLine(boxLogin, 'polar_session')).toBeUndefined();
    expect([...prod.cookies.keys()].sort()).toEqual([
      'polar_csrf',
      'polar_sandbox_csrf',
      'polar_sandbox_session',
      'polar_session',
    ]);

    const prodSettings = await prod.get('/settings');
    expect(prodSettings.status).toBe(200);
    expect(prodSettings.text).toContain(production.slug);
    const boxSettings = await box.get('/settings');
    expect(boxSettings.status).toBe(200);
    expect(boxSettings.text).toContain(sandbox.slug);
    expect(boxSettings.text).not.toContain(production.slug);
  });

  it('signing out of the sandbox leaves production signed in', async () => {
    const prod = new WebClient(stack.production.baseUrl);
    const box = new WebClient(stack.sandbox.baseUrl, prod.cookies);
    expect((await prod.logIn(production.email, PASSWORD)).status).toBe(303);
    expect((await box.logIn(sandbox.email, PASSWORD)).status).toBe(303);

    const out = await box.post('/logout', { csrf_token: await box.csrfFrom('/settings') });
    expect(out.status).toBe(303);
    expect(prod.cookies.has('polar_sandbox_session')).toBe(false);
    const signedOut = await box.get('/settings');
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toMatch(/^\/login/);

    expect((await prod.get('/settings')).status).toBe(200);
  });
});
