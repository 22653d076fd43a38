import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ANONYMOUS, type Principal } from '../../kit/principal.js';
import {
  configureWebKit,
  currentUser,
  escapeHtml,
  html,
  issueCsrfToken,
  rawHtml,
  renderPage,
  requireSignIn,
  safeReturnTo,
  setSessionCookie,
  verifyCsrf,
} from '../../rest-adapter/web-kit/kit.js';
import { WebClient, csrfTokenOf, cookieLine } from './client.js';

/** The web kit on its own: escaping, return_to, cookies and CSRF on a bare Express app. */
describe('html', () => {
  it('escapes interpolated values, not nested templates or raw constants', () => {
    const name = '<script>alert("x")</script> & \'';
    expect(html`<p>${name}</p>`.value).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;</p>');
    expect(html`<ul>${['a<', 'b'].map(v => html`<li>${v}</li>`)}</ul>`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul>');
    expect(html`${null}${undefined}${false}${rawHtml('<br>')}${0}`.value).toBe('<br>0');
    expect(escapeHtml('"`')).toBe('&quot;&#96;');
  });

  it('renders a whole document; a plain-string body and the title are escaped', () => {
    const page = renderPage({ title: 'A <b>', body: '<img src=x>', user: { email: 'me@<x>.com' } });
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<title>A &lt;b&gt;</title>');
    expect(page).toContain('&lt;img src=x&gt;');
    expect(page).toContain('me@&lt;x&gt;.com');
    expect(page).toContain('<style>');
    expect(page).not.toContain('<script');
  });
});

describe('safeReturnTo', () => {
  it('keeps same-origin paths', () => {
    expect(safeReturnTo('/settings/organizations/1?a=b#c')).toBe('/settings/organizations/1?a=b#c');
    expect(safeReturnTo('/oauth2/authorize?client_id=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb')).toBe(
      '/oauth2/authorize?client_id=x&redirect_uri=https%3A%2F%2Fapp.example%2Fcb',
    );
  });

  it.each([
    'https://evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    ' /settings',
    'javascript:alert(1)',
    'evil.example',
    '',
    undefined,
    42,
    ['/settings'],
    `/${'a'.repeat(3000)}`,
  ])('refuses %p', value => {
    expect(safeReturnTo(value)).toBe('/dashboard');
  });
});

describe('cookies and CSRF on an app', () => {
  let server: Server;
  let base: string;
  let principal: Principal = ANONYMOUS;

  beforeAll(async () => {
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    app.use((req, _res, next) => {
      req.principal = principal;
      next();
    });
    app.get(
      '/form',
      (req, res) => void res.type('html').send(`<input name="csrf_token" value="${issueCsrfToken(req, res)}">`),
    );
    app.post('/form', (req, res) => void res.status(verifyCsrf(req) ? 200 : 403).end());
    app.get('/private', (req, res) => {
      if (!requireSignIn(req, res)) return;
      res.json(currentUser(req));
    });
    app.get('/session', (req, res) => {
      setSessionCookie(req, res, 'polar_us_x', 60_000);
      res.end();
    });
    configureWebKit(app, { secret: 's'.repeat(40), publicUrl: 'https://billing.example', environment: 'production' });
    server = await new Promise<Server>(resolve => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise(resolve => server.close(resolve));
  });
  afterEach(() => {
    principal = ANONYMOUS;
  });

  it('marks cookies Secure when the public URL is https', async () => {
    const client = new WebClient(base);
    const session = cookieLine(await client.get('/session'), 'polar_session')!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/; Secure/i);
    expect(cookieLine(await client.get('/form'), 'polar_csrf')).toMatch(/; Secure/i);
  });

  it('accepts the token with its cookie, and binds it to the session', async () => {
    const client = new WebClient(base);
    const token = csrfTokenOf((await client.get('/form')).text);
    expect((await client.post('/form', { csrf_token: token })).status).toBe(200);
    expect((await client.post('/form', { csrf_token: token.slice(1) })).status).toBe(403);
    principal = {
      subject: 'user',
      subjectId: 'u1',
      credential: 'user_session',
      scopes: [],
      organizationIds: [],
      tokenId: 's1',
    };
    expect((await client.post('/form', { csrf_token: token })).status).toBe(403);
    const bound = csrfTokenOf((await client.get('/form')).text);
    expect((await client.post('/form', { csrf_token: bound })).status).toBe(200);
    principal = { ...principal, tokenId: 's2' };
    expect((await client.post('/form', { csrf_token: bound })).status).toBe(403);
  });

  it('redirects to /login with the page to come back to, and knows the signed-in user', async () => {
    const client = new WebClient(base);
    const res = await client.get('/private?x=1');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/login?return_to=%2Fprivate%3Fx%3D1');
    principal = {
      subject: 'user',
      subjectId: 'u1',
      credential: 'personal_access_token',
      scopes: [],
      organizationIds: [],
      tokenId: 't',
    };
    expect((await client.get('/private')).status).toBe(303); // a bearer is not a browser sign-in
    principal = { ...principal, credential: 'user_session', tokenId: 's1', organizationIds: ['o1'] };
    const ok = await client.get('/private');
    expect(JSON.parse(ok.text)).toEqual({ id: 'u1', sessionId: 's1', organizationIds: ['o1'] });
  });
});
