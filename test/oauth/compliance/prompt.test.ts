// OpenID Connect Core 1.0 §3.1.2.1 (`prompt`, `max_age`) and §3.1.2.6 (login_required,
// consent_required): prompt=none never shows a page; prompt=login makes the person sign in again;
// prompt=consent shows the consent page even when the scopes were granted before.
import {
  authorizePath,
  Browserless,
  codeFor,
  createPerson,
  pkcePair,
  REDIRECT_URI,
  registerClient,
  startOAuthStack,
  type OAuthStack,
  type Person,
  type RegisteredClient,
} from '../support.js';

let stack: OAuthStack;
let person: Person;
let client: RegisteredClient;

beforeAll(async () => {
  stack = await startOAuthStack('prompt');
  person = await createPerson(stack);
  client = await registerClient(stack, { scope: 'openid email organizations:read' });
});
afterAll(async () => {
  await stack?.close();
});

const params = (overrides: Record<string, string | undefined> = {}) => ({
  response_type: 'code',
  client_id: client.client_id,
  redirect_uri: REDIRECT_URI,
  scope: 'openid email',
  state: 'st',
  code_challenge: pkcePair().challenge,
  code_challenge_method: 'S256',
  ...overrides,
});

describe('prompt and max_age', () => {
  it('prompt=none without a session: login_required to the redirect URI', async () => {
    const response = await new Browserless(stack.base).get(authorizePath(params({ prompt: 'none' })));
    expect(response.status).toBe(302);
    const location = new URL(response.location!);
    expect(location.searchParams.get('error')).toBe('login_required');
    expect(location.searchParams.get('state')).toBe('st');
  });

  it('without a session (and no prompt): the login page, coming back to the same request', async () => {
    const path = authorizePath(params());
    const response = await new Browserless(stack.base).get(path);
    expect(response.status).toBe(303);
    const location = new URL(response.location!, stack.base);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('return_to')).toBe(path);
  });

  it('prompt=none with a session but no grant: consent_required; after consent it answers with a code directly', async () => {
    const browser = new Browserless(stack.base);
    await browser.logIn(person.email);
    const before = await browser.get(authorizePath(params({ prompt: 'none' })));
    expect(new URL(before.location!).searchParams.get('error')).toBe('consent_required');

    await codeFor(browser, client, { scope: 'openid email' });
    const after = await browser.get(authorizePath(params({ prompt: 'none' })));
    expect(after.status).toBe(302);
    expect(new URL(after.location!).searchParams.get('code')).toMatch(/^polar_ac_/);
    // A scope beyond the grant still needs consent.
    const wider = await browser.get(
      authorizePath(params({ prompt: 'none', scope: 'openid email organizations:read' })),
    );
    expect(new URL(wider.location!).searchParams.get('error')).toBe('consent_required');
  });

  it('prompt=consent shows the consent page even for granted scopes', async () => {
    const browser = new Browserless(stack.base);
    await browser.logIn(person.email);
    await codeFor(browser, client, { scope: 'openid email' });
    const page = await browser.get(authorizePath(params({ prompt: 'consent' })));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Allow');
    expect(page.text).toContain('Deny');
  });

  it('prompt=login ends the session and sends the person to sign in, then continues without prompt=login', async () => {
    const browser = new Browserless(stack.base);
    await browser.logIn(person.email);
    const response = await browser.get(authorizePath(params({ prompt: 'login' })));
    expect(response.status).toBe(303);
    const location = new URL(response.location!, stack.base);
    expect(location.pathname).toBe('/login');
    const returnTo = location.searchParams.get('return_to')!;
    expect(returnTo).toMatch(/^\/oauth2\/authorize\?/);
    expect(new URL(returnTo, stack.base).searchParams.get('prompt')).toBeNull();
    expect(browser.cookies.has('polar_session')).toBe(false);
    // The old session is over on the server too.
    const again = await browser.get(authorizePath(params({ prompt: 'none' })));
    expect(new URL(again.location!).searchParams.get('error')).toBe('login_required');
  });

  it('max_age older than the sign-in asks for a new sign-in (or login_required with prompt=none)', async () => {
    const browser = new Browserless(stack.base);
    await browser.logIn(person.email);
    await new Promise(resolve => setTimeout(resolve, 1100));
    const silent = await browser.get(authorizePath(params({ prompt: 'none', max_age: '0' })));
    expect(new URL(silent.location!).searchParams.get('error')).toBe('login_required');
    const interactive = await browser.get(authorizePath(params({ max_age: '0' })));
    expect(interactive.status).toBe(303);
    expect(new URL(interactive.location!, stack.base).pathname).toBe('/login');
  });
});
