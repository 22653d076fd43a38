import { launchChromium, pageProblems } from '../support/browser.js';
import { type Browser, type Page } from 'playwright-core';
import {
  createPerson,
  type OAuthStack,
  PASSWORD,
  type Person,
  registerClient,
  startOAuthStack,
} from '../oauth/support.js';

/**
 * /docs in headless Chromium (Debian's `chromium`, driven by playwright-core): Swagger UI served by this
 * process renders the document under the page's strict CSP, the search finds an operation, and "Try it
 * out" with a token pasted in the Authorize dialog calls the running service. Without JavaScript the
 * page still lists the operations. Screenshots go to /tmp/docs-*.png.
 */
jest.setTimeout(300_000);
/**
 * "All operations" draws the whole document, and each later action on that page (a search, a click)
 * redraws it: on a loaded two-core machine that takes Swagger UI longer than Playwright's 30 s. Pages
 * that show it wait up to 2 minutes for readiness; a wait, not a timing (the timing is printed below).
 */
const WHOLE_DOCUMENT_MS = 120_000;

let stack: OAuthStack;
let owner: Person;
let token: string;
let browser: Browser;

beforeAll(async () => {
  stack = await startOAuthStack('docs_browser');
  owner = await createPerson(stack, 'Docs Browser Org');
  token = await stack.admin.createOrganizationAccessToken(owner.organizationId, ['organizations:read']);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const problemsOf = (page: Page) => pageProblems(page, stack.base);

const operation = (page: Page, method: string, path: string) =>
  page.locator(`.opblock-${method}`).filter({ has: page.locator(`[data-path="${path}"]`) });

describe('the API reference at /docs', () => {
  // Timed, not asserted (a loaded machine must not turn the suite red): the goal is the first operation
  // within 3 s of asking for the page (docs/performance.md#the-docs-page).
  it('prints how long the first operation takes to appear, on a cold and on a warm cache', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      for (const visit of ['cold cache', 'warm cache']) {
        const started = Date.now();
        await page.goto(`${stack.base}/docs`, { waitUntil: 'commit' });
        // Whichever list shows an operation first: on a warm cache Swagger UI can draw (and take the page's
        // own list away) before the first look.
        await page.locator('#no-script tr, .opblock').first().waitFor({ timeout: 60_000 });
        const listed = Date.now() - started;
        await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
        const drawn = Date.now() - started;
        console.log(
          `/docs: first operation on screen ${listed} ms after the request, Swagger UI's drawn at ${drawn} ms (${visit})`,
        );
      }
    } finally {
      await context.close();
    }
  });

  it('is sent with a CSP that allows only its own scripts and styles', async () => {
    const response = await fetch(`${stack.base}/docs`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe');
    const bundle = await fetch(`${stack.base}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=3600');
    await bundle.arrayBuffer();
    // Sent compressed, with an ETag that answers a revisit with 304: the bundle, the document, a tag's document.
    for (const path of [
      '/docs/assets/swagger-ui-bundle.js',
      '/openapi.json',
      '/docs/openapi/2027-01/organizations.json',
    ]) {
      const first = await fetch(`${stack.base}${path}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect([path, first.status, first.headers.get('content-encoding')]).toEqual([path, 200, 'br']);
      expect(first.headers.get('vary')).toBe('Accept-Encoding');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      await first.arrayBuffer();
      const again = await fetch(`${stack.base}${path}`, { headers: { 'if-none-match': etag } });
      expect([path, again.status]).toEqual([path, 304]);
    }
    const whole = await fetch(`${stack.base}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(whole.headers.get('content-encoding')).toBe('gzip');
    expect(whole.headers.get('cache-control')).toBe('no-cache');
    const tagged = (await (await fetch(`${stack.base}/docs/openapi/2027-01/organizations.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    expect(Object.keys(tagged.paths)).toEqual(['/v1/organizations/', '/v1/organizations/{id}']);
    expect((await fetch(`${stack.base}/docs/openapi/2027-01/no-such-tag.json`)).status).toBe(404);
    expect((await fetch(`${stack.base}/docs/openapi/1999-01/organizations.json`)).status).toBe(404);
    // Only the files the page uses: not the rest of the package, nothing outside it.
    expect((await fetch(`${stack.base}/docs/assets/package.json`)).status).toBe(404);
    expect((await fetch(`${stack.base}/docs/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  // Swagger UI 5.35 virtualizes the operation list once tags and operations number 150 or more: only
  // what is near the viewport is in the DOM. So the test scrolls the page through and collects every
  // operation that was drawn on the way, as a reader scrolling down would see them.
  it('renders the operations, finds one with the search box, and tries it with a bearer token', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(WHOLE_DOCUMENT_MS);
    const problems = problemsOf(page);
    try {
      const document = (await (await fetch(`${stack.base}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const documented = Object.values(document.paths).flatMap(item =>
        Object.keys(item).filter(method => ['get', 'post', 'put', 'patch', 'delete'].includes(method)),
      ).length;
      // The page draws one tag at a time; "all operations" draws the whole document.
      await page.goto(`${stack.base}/docs`);
      await operation(page, 'get', '/v1/organizations/').waitFor();
      expect(await page.locator('.docs-tags a[aria-current=page]').getAttribute('data-tag')).toBe('organizations');
      await operation(page, 'get', '/v1/products/').waitFor({ state: 'detached' });
      await page.locator('.docs-tags a[data-tag=all]').click();
      await operation(page, 'get', '/v1/organizations/').waitFor();
      const drawn = new Set<string>();
      for (let step = 0; step < 1_000; step++) {
        for (const id of await page.locator('.opblock').evaluateAll(blocks => blocks.map(block => block.id)))
          drawn.add(id);
        // A string, not a function: this project's TypeScript has no DOM types.
        const atBottom = await page.evaluate<boolean>(
          'window.scrollBy(0, 500), window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2',
        );
        await page.waitForTimeout(30);
        if (atBottom && step > 0) break;
      }
      for (const id of await page.locator('.opblock').evaluateAll(blocks => blocks.map(block => block.id)))
        drawn.add(id);
      expect(drawn.size).toBe(documented);
      // At the bottom, the last operation of the page (the last tag's, `integrations`) is drawn.
      await operation(page, 'post', '/v1/integrations/stripe/webhook').waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: '/tmp/docs-overview.png' });

      // The search matches words of the path, id or summary, not just the tag.
      await page.locator('.operation-filter-input').fill('organizations list');
      await operation(page, 'patch', '/v1/organizations/{id}').waitFor({ state: 'detached' });
      await operation(page, 'get', '/v1/organizations/').waitFor();
      expect(await page.locator('.opblock').count()).toBe(1);

      // Authorize: paste the token into the bearer scheme of the dialog.
      await page.locator('.auth-wrapper .authorize').click();
      const dialog = page.locator('.dialog-ux');
      const bearer = dialog.locator('.auth-container').filter({ hasText: 'customer session token' });
      await bearer.locator('#auth-bearer-value').fill(token);
      await bearer.getByRole('button', { name: 'Apply credentials' }).click();
      await bearer.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await page.screenshot({ path: '/tmp/docs-authorize.png' });
      await bearer.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // Open the operation, see its schemas, execute it against this server.
      const list = operation(page, 'get', '/v1/organizations/');
      await list.locator('.opblock-summary').click();
      await list.getByText('Responses').first().waitFor();
      await list.getByRole('button', { name: 'Execute' }).click();
      const live = list.locator('.live-responses-table .response');
      await live.waitFor();
      expect((await live.locator('.response-col_status').textContent())?.trim()).toBe('200');
      expect(await live.locator('.response-col_description').textContent()).toContain(owner.organizationId);
      expect(await list.locator('.request-url').textContent()).toContain(`${stack.base}/v1/organizations/`);
      await list.screenshot({ path: '/tmp/docs-try-it.png' });

      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs in with the OAuth 2.0 authorization code flow from the Authorize dialog and calls the API', async () => {
    // A public client (PKCE) whose redirect URI is Swagger UI's page, as a developer would register it.
    const client = await registerClient(stack, {
      client_name: 'API reference',
      redirect_uris: [`${stack.base}/docs/assets/oauth2-redirect.html`],
      token_endpoint_auth_method: 'none',
      scope: 'openid organizations:read',
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = problemsOf(page);
    try {
      await page.goto(`${stack.base}/login`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(url => url.pathname.startsWith('/dashboard'));

      await page.goto(`${stack.base}/docs`);
      await page.locator('.auth-wrapper .authorize').click();
      const oauth = page.locator('.dialog-ux .auth-container').filter({ hasText: 'authorizationCode' });
      await oauth.locator('#client_id_authorizationCode').fill(client.client_id);
      // The checkbox is drawn by its label.
      await oauth.locator('label[for="organizations:read-authorizationCode-checkbox-oauth2"]').click();
      expect(await oauth.locator('[id="organizations:read-authorizationCode-checkbox-oauth2"]').isChecked()).toBe(true);
      const popupOpened = page.waitForEvent('popup');
      await oauth.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
      const popup = await popupOpened;
      // Listen before the click: the popup may close before a later listener is attached, and on a
      // loaded machine the redirect and token exchange can take longer than the default 30 s.
      const popupClosed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 90_000 });
      await popup.getByRole('button', { name: 'Allow' }).click();
      await popupClosed;
      await oauth.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await oauth.getByRole('button', { name: 'Close' }).click();

      const list = operation(page, 'get', '/v1/organizations/');
      await list.locator('.opblock-summary').click();
      await list.getByRole('button', { name: 'Execute' }).click();
      const live = list.locator('.live-responses-table .response');
      await live.waitFor();
      expect((await live.locator('.response-col_status').textContent())?.trim()).toBe('200');
      expect(await live.locator('.response-col_description').textContent()).toContain(owner.organizationId);
      expect(await list.locator('.curl').textContent()).toContain('Bearer polar_at_u_');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('picks the API version: the newest by default, another from the picker, each from its own document', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(WHOLE_DOCUMENT_MS);
    const problems = problemsOf(page);
    /** The properties of validate's answer in the document Swagger UI drew (a string: no DOM types here). */
    const validateFields = () =>
      page.evaluate<string[]>(
        "Object.keys(window.ui.specSelectors.specJson().toJS().paths['/v1/license-keys/validate'].post" +
          ".responses['200'].content['application/json'].schema.properties)",
      );
    try {
      const newest = page.waitForResponse(r => r.url().endsWith('/docs/openapi/2027-01/license_keys.json'));
      await page.goto(`${stack.base}/docs?tag=license_keys`);
      expect((await newest).status()).toBe(200);
      await operation(page, 'post', '/v1/license-keys/validate').waitFor();
      expect(await page.locator('#docs-version').inputValue()).toBe('2027-01');
      expect(await validateFields()).toEqual(expect.arrayContaining(['member_id', 'subscription', 'order']));
      // The tag links keep the version picked.
      expect(await page.locator('.docs-tags a[data-tag=all]').getAttribute('href')).toBe(
        '/docs?tag=all&version=2027-01',
      );

      const oldest = page.waitForResponse(r => r.url().endsWith('/docs/openapi/2026-04/license_keys.json'));
      await page.locator('#docs-version').selectOption('2026-04');
      expect((await oldest).status()).toBe(200);
      await page.waitForURL(/version=2026-04/);
      await operation(page, 'post', '/v1/license-keys/validate').waitFor();
      expect(await page.locator('#docs-version').inputValue()).toBe('2026-04');
      const fields = await validateFields();
      expect(fields).toContain('key');
      for (const field of ['member_id', 'member', 'subscription_id', 'subscription', 'order_id', 'order'])
        expect(fields).not.toContain(field);

      // "all operations" is the version's whole document.
      const whole = page.waitForResponse(r => r.url().endsWith('/2026-04/openapi.json'));
      await page.locator('.docs-tags a[data-tag=all]').click();
      expect((await whole).status()).toBe(200);
      await page.screenshot({ path: '/tmp/docs-version-picker.png' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists the operations without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${stack.base}/docs`);
      const row = page.getByRole('row').filter({ hasText: 'oauth2:request_token' });
      expect(await row.textContent()).toContain('/v1/oauth2/token');
      expect(await page.getByRole('row').count()).toBeGreaterThanOrEqual(55);
      await page.screenshot({ path: '/tmp/docs-no-script.png' });
    } finally {
      await context.close();
    }
  });
});
