import { launchChromium } from '../support/browser.js';
import { type Browser } from 'playwright-core';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The sign-in and organization settings pages in headless Chromium (Debian's `chromium`, driven by
 * playwright-core), with JavaScript turned off: the pages must work as plain HTML forms.
 */
jest.setTimeout(90_000);

const PASSWORD = 'correct horse battery'; // what createTenant gives its users
let stack: TestStack;
let base: string;
let owner: Tenant;
let browser: Browser;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  owner = await createTenant(stack.production, { name: 'Browser Org' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('organization settings in a browser', () => {
  it('logs in, creates a token with two scopes, uses it, and revokes it with the button', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/login`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill('wrong password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByText('Incorrect email or password.').waitFor();

      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      // Sign-in lands on the dashboard (their only organization); the tokens are on /settings.
      await page.waitForURL(`${base}/dashboard/${owner.organizationId}`);
      await page.goto(`${base}/settings`);
      const cookies = await context.cookies(base);
      const session = cookies.find(c => c.name === 'polar_session')!;
      expect(session.value).toMatch(/^polar_us_/);
      expect(session.httpOnly).toBe(true);
      expect(session.sameSite).toBe('Lax');

      await page.getByRole('link', { name: 'Browser Org' }).click();
      await page.waitForURL(`${base}/settings/organizations/${owner.organizationId}`);
      await page.getByRole('heading', { name: 'Browser Org' }).waitFor();

      await page.getByLabel('Comment').fill('browser token');
      await page.getByLabel('organizations:read', { exact: true }).check();
      await page.getByLabel('products:read', { exact: true }).check();
      await page.getByLabel('Expires').selectOption({ label: '90 days' });
      await page.getByRole('button', { name: 'Create token' }).click();

      await page.getByRole('heading', { name: 'Access token created' }).waitFor();
      await page.getByText('shown only once').waitFor();
      const token = (await page.locator('#new-token').textContent())!.trim();
      expect(token).toMatch(/^polar_oat_[0-9A-Za-z]{43}$/);

      const read = await call(base, 'GET', '/v1/organizations/', { token });
      expect(read.status).toBe(200);
      expect(read.body.items.map((o: { id: string }) => o.id)).toEqual([owner.organizationId]);

      await page.getByRole('link', { name: 'Back to Browser Org' }).click();
      const row = page.getByRole('row').filter({ hasText: 'browser token' });
      await row.getByText('organizations:read').waitFor();
      await row.getByText('products:read').waitFor();
      expect(await page.content()).not.toContain(token);

      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('The access token was revoked.').waitFor();
      expect(await page.getByRole('row').filter({ hasText: 'browser token' }).count()).toBe(0);

      const after = await call(base, 'GET', '/v1/organizations/', { token });
      expect(after.status).toBe(401);

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(`${base}/login`);
      await page.goto(`${base}/settings`);
      await page.waitForURL(`${base}/login?return_to=%2Fsettings`);
    } finally {
      await context.close();
    }
  });
});
