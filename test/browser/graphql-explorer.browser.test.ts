import { launchChromium, pageProblems } from '../support/browser.js';
import { type Browser, type Page } from 'playwright-core';
import { createPerson, type OAuthStack, PASSWORD, type Person, startOAuthStack } from '../oauth/support.js';

/**
 * The GraphQL explorer at `GET /graphql` in headless Chromium: GraphiQL, React and the page's script all
 * come from this process (no other origin is asked for anything) under the page's strict CSP; a token
 * typed into the Headers tab runs the query and its data shows; signed in, the session runs it without
 * a token. A program's GET keeps a JSON answer. Screenshots go to /tmp/graphql-explorer-*.png.
 */
jest.setTimeout(120_000);

let stack: OAuthStack;
let owner: Person;
let token: string;
let browser: Browser;

beforeAll(async () => {
  stack = await startOAuthStack('graphql_explorer');
  owner = await createPerson(stack, 'Explorer Browser Org');
  token = await stack.admin.createOrganizationAccessToken(owner.organizationId, ['organizations:read']);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const problemsOf = (page: Page) => pageProblems(page, stack.base);

/** The text of GraphiQL's result pane (CodeMirror draws it as lines of text). */
const resultOf = (page: Page) => page.locator('section.result-window');

/** Replaces the Headers tab's text, as typed (insertText: no bracket the editor would close by itself). */
async function typeHeaders(page: Page, headers: object): Promise<void> {
  await page.locator('.graphiql-editor-tool .graphiql-editor:visible .CodeMirror').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(JSON.stringify(headers));
}

describe('the GraphQL explorer at GET /graphql', () => {
  it('is served with a CSP allowing only its own origin, its files compressed, and no CDN', async () => {
    const response = await fetch(`${stack.base}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(response.headers.get('vary')).toBe('Accept, Accept-Encoding');
    const html = await response.text();
    expect(html).not.toMatch(/src="https?:|href="https?:/);
    expect(html).toContain('Authorization');
    expect(html).toContain('Polar-Organization');
    for (const file of ['graphiql.js', 'graphiql.css', 'react.js', 'react-dom.js', 'explorer.js']) {
      const asset = await fetch(`${stack.base}/graphql/assets/${file}`, { headers: { 'accept-encoding': 'br' } });
      expect([file, asset.status, asset.headers.get('content-encoding')]).toEqual([file, 200, 'br']);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=3600');
      const again = await fetch(`${stack.base}/graphql/assets/${file}`, {
        headers: { 'if-none-match': asset.headers.get('etag')! },
      });
      expect([file, again.status]).toEqual([file, 304]);
      await asset.arrayBuffer();
    }
    expect((await fetch(`${stack.base}/graphql/assets/package.json`)).status).toBe(404);
  });

  it('keeps a JSON answer for a program: a GET is 405, queries are POSTed', async () => {
    for (const accept of ['application/json', '*/*']) {
      const response = await fetch(`${stack.base}/graphql?query=%7B__typename%7D`, { headers: { accept } });
      expect([accept, response.status, response.headers.get('allow')]).toEqual([accept, 405, 'POST']);
      const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('runs the query with the token typed into the Headers tab and shows the data', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = problemsOf(page);
    try {
      const started = Date.now();
      await page.goto(`${stack.base}/graphql`);
      await page.locator('.graphiql-execute-button').waitFor();
      console.log(`/graphql: explorer ready ${Date.now() - started} ms after the request (cold cache)`);
      await page.getByText('organizations(limit: 5)').first().waitFor();
      // The placeholder sends no token: an anonymous caller is told to authenticate.
      await page.locator('.graphiql-execute-button').click();
      await resultOf(page).getByText('"Unauthorized"').first().waitFor();

      await typeHeaders(page, { Authorization: `Bearer ${token}` });
      await page.locator('.graphiql-execute-button').click();
      await resultOf(page).getByText(owner.organizationName).first().waitFor();
      expect(await resultOf(page).textContent()).toContain(owner.organizationId);
      await page.screenshot({ path: '/tmp/graphql-explorer-token.png' });

      // A token that is no token: the 401 body shows in the result pane.
      await typeHeaders(page, { Authorization: 'Bearer polar_oat_nothing' });
      await page.locator('.graphiql-execute-button').click();
      await resultOf(page).getByText('invalid_token').first().waitFor();
      expect(problems.filter(p => !p.startsWith('401 ') && !p.includes('status of 401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('runs as the signed-in person when no token replaces the placeholder', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = problemsOf(page);
    try {
      await page.goto(`${stack.base}/login?return_to=/graphql`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(`${stack.base}/graphql`);
      await page.locator('.graphiql-execute-button').click();
      await resultOf(page).getByText(owner.organizationName).first().waitFor();
      await page.screenshot({ path: '/tmp/graphql-explorer-session.png' });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
