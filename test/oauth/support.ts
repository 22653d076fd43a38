import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { type Clock, systemClock } from '../../kit/clock.js';
import { type EnvironmentName, loadConfig } from '../../kit/config.js';
import { createLogger } from '../../kit/logger.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { InProcessOAuth2Provider } from '../../subgraphs/identity/oauth2/oauth2.provider.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { TEST_SECRET } from '../support/stack.js';

export const PASSWORD = 'correct horse battery';

/**
 * One environment as `npm start` builds it, listening on a loopback port that is also its public URL
 * (the OIDC issuer), so discovery, redirects and id_token `iss` all name the address the tests call.
 */
export interface OAuthStack {
  environment: Environment;
  /** = the issuer. */
  base: string;
  admin: IdentityAdmin;
  databaseUrl: string;
  /** Rotates the id_token signing key of this environment; returns the new kid. */
  rotateSigningKey(): Promise<string>;
  close(): Promise<void>;
}

export async function startOAuthStack(
  label: string,
  name: EnvironmentName = 'production',
  clock: Clock = systemClock,
): Promise<OAuthStack> {
  const server: Server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: base, SANDBOX_PUBLIC_URL: base });
  // A copy of the migrated template, as every test stack's (test/support/database-template.ts).
  const database = await createMigratedTestDatabase(`oauth_${label}`);
  let environment: Environment;
  try {
    environment = await startEnvironment({
      name,
      config,
      databaseUrl: database.url,
      secret: TEST_SECRET,
      clock,
      logger: createLogger(process.env.OAUTH_TEST_LOG ? 'error' : 'silent'),
    });
  } catch (error) {
    server.close();
    await database.drop();
    throw error;
  }
  server.on('request', environment.app);
  const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, clock, TEST_SECRET);
  const provider = new InProcessOAuth2Provider(environment.identity.orm, environment.identity.services.oauth2, clock);
  return {
    environment,
    base,
    admin,
    databaseUrl: database.url,
    rotateSigningKey: async () => {
      const kid = await provider.rotateSigningKey();
      environment.identity.services.oauth2.keys.forget();
      return kid;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
      await environment.close();
      await database.drop();
    },
  };
}

export interface Person {
  userId: string;
  email: string;
  organizationId: string;
  organizationName: string;
}

let counter = 0;

/** A person who can sign in and owns one organization. */
export async function createPerson(stack: OAuthStack, organizationName?: string): Promise<Person> {
  counter += 1;
  const tag = `${process.pid}-${counter}-${randomBytes(3).toString('hex')}`;
  const email = `person-${tag}@example.com`;
  const user = await stack.admin.createUser(email, PASSWORD);
  const name = organizationName ?? `Org ${tag}`;
  const organization = await stack.admin.createOrganization(email, name, `org-${tag}`);
  return { userId: user.id, email, organizationId: organization.id, organizationName: name };
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  location: string | null;
}

/** A cookie-keeping HTTP client that never follows redirects (the tests look at each one). */
export class Browserless {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string | string[]>; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (options.form) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(options.form))
        for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
      body = params.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || attributes.some(a => /^\s*expires=Thu, 01 Jan 1970/i.test(a))) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: parsed,
      location: response.headers.get('location'),
    };
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.request('GET', path, { headers });
  }

  /** Signs in through the real login form. */
  async logIn(email: string, password = PASSWORD): Promise<void> {
    const page = await this.get('/login');
    const response = await this.request('POST', '/login', { form: { email, password, csrf_token: csrfOf(page.text) } });
    if (response.status !== 303 || !this.cookies.has('polar_session'))
      throw new Error(`login failed: ${response.status} ${response.text.slice(0, 200)}`);
  }
}

export function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no csrf_token in the page: ${html.slice(0, 300)}`);
  return match[1];
}

/** The hidden inputs of the consent form (the carried authorization request). */
export function hiddenInputsOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[match[1]] = decodeEntities(match[2]);
  return out;
}

function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  registration_access_token: string;
  registration_client_uri: string;
  [key: string]: unknown;
}

export const REDIRECT_URI = 'https://client.example/callback';

export async function registerClient(
  stack: OAuthStack,
  metadata: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const response = await fetch(`${stack.base}/v1/oauth2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test client', redirect_uris: [REDIRECT_URI], ...metadata }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${JSON.stringify(body)}`);
  return body as RegisteredClient;
}

export function authorizePath(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.append(key, value);
  return `/oauth2/authorize?${search.toString()}`;
}

/**
 * Runs the authorization request in a signed-in browserless client up to the redirect back to the
 * client: GET the authorize URL, then (when the consent page shows) press Allow, or Deny.
 */
export async function authorizeThrough(
  browser: Browserless,
  params: Record<string, string | undefined>,
  decision: { allow?: boolean; organizationId?: string } = {},
): Promise<URL> {
  const first = await browser.get(authorizePath(params));
  if (first.status === 302) return new URL(first.location!);
  if (first.status !== 200) throw new Error(`authorize answered ${first.status}: ${first.text.slice(0, 300)}`);
  const form: Record<string, string> = {
    ...hiddenInputsOf(first.text),
    action: decision.allow === false ? 'deny' : 'allow',
  };
  if (decision.organizationId) form.organization_id = decision.organizationId;
  const posted = await browser.request('POST', '/oauth2/consent', { form });
  if (posted.status !== 303) throw new Error(`consent answered ${posted.status}: ${posted.text.slice(0, 300)}`);
  return new URL(posted.location!);
}

/** POSTs a form to the token endpoint, with HTTP Basic when `basic` is given. */
export async function tokenRequest(
  stack: OAuthStack,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<HttpResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString('base64')}`;
  return new Browserless(stack.base).request('POST', '/v1/oauth2/token', { form, headers });
}

/** Rows of an oauth table as JSON text, for the "only hashes are stored" checks. */
export async function tableRows(stack: OAuthStack, table: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const result = await client.query(`select row_to_json(t)::text as row from identity.${table} t`);
    return result.rows.map(r => r.row as string);
  } finally {
    await client.end();
  }
}

export interface CodeResult {
  code: string;
  verifier: string;
  state: string;
  nonce: string;
  callback: URL;
}

/** A fresh code for `client` (PKCE S256, state, nonce), consenting when asked. */
export async function codeFor(
  browser: Browserless,
  client: RegisteredClient,
  params: Record<string, string | undefined> = {},
  decision: { organizationId?: string } = {},
): Promise<CodeResult> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString('hex');
  const nonce = randomBytes(8).toString('hex');
  const callback = await authorizeThrough(
    browser,
    {
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      scope: String(client.scope ?? 'openid'),
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...params,
    },
    decision,
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback}`);
  return { code, verifier, state, nonce, callback };
}

/** Credentials of a client_secret_post client as form fields. */
export function postAuth(client: RegisteredClient): Record<string, string> {
  return client.client_secret
    ? { client_id: client.client_id, client_secret: client.client_secret }
    : { client_id: client.client_id };
}

/** Runs the whole flow for a client_secret_post (or public) client and returns the token response. */
export async function tokensFor(
  stack: OAuthStack,
  browser: Browserless,
  client: RegisteredClient,
  params: Record<string, string | undefined> = {},
  decision: { organizationId?: string } = {},
): Promise<any> {
  const { code, verifier } = await codeFor(browser, client, params, decision);
  const response = await tokenRequest(stack, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: params.redirect_uri ?? REDIRECT_URI,
    code_verifier: verifier,
    ...postAuth(client),
  });
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${response.text}`);
  return response.body;
}

/** GET with a bearer token. */
export function bearerGet(stack: OAuthStack, path: string, token: string) {
  return new Browserless(stack.base).get(path, { authorization: `Bearer ${token}` });
}
