import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../kit/clock.js';
import { ANONYMOUS, PRINCIPAL_HEADER, type Principal, signPrincipal } from '../../kit/principal.js';
import { LEAKED_TOKEN_RPC } from '../../kit/leaked-tokens.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { INTERNAL_PRINCIPAL_PATH, signInternalRequest } from '../../kit/http/internal-auth.js';
import { type IdentityRuntime, startIdentity } from '../../subgraphs/identity/runtime.js';
import { createTestDatabase } from '../support/database.js';
import { call, createTenant, type RunningEnvironment, TEST_SECRET, type Tenant } from '../support/stack.js';
import { createHash, createSign, generateKeyPairSync } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { WEB_IDENTITY_RPC } from '../../subgraphs/identity/web/web.contract.js';
import { OAUTH2_PROVIDER_RPC } from '../../subgraphs/identity/oauth2/oauth2.contract.js';
import { csrfTokenOf, WebClient } from '../web/client.js';
import { validateEvent } from '@polar-sh/sdk/webhooks';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The distributed topology as users deploy it: identity, gateway and REST adapter each a separate
 * `node <build>/<part>/main.js` process on loopback, one environment, sharing DATABASE_URL, SECRET and
 * INTERNAL_KEY. Requests go REST adapter → (signed) identity for the principal, → (signed) gateway →
 * (re-signed) identity subgraph; the subgraph and the gateway refuse anything unsigned. The pages and
 * the OAuth endpoints go REST adapter → (signed JSON RPC) identity's published contracts.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INTERNAL_KEY = `internal-${randomBytes(24).toString('hex')}`;
const START_TIMEOUT_MS = 60_000;
const PUBLIC_URL = 'https://api.billing.example';
/** Stands in for GitHub's secret-scanning signing key. */
const GITHUB_KEY = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const GITHUB_KEYS = JSON.stringify({
  public_keys: [{ key_identifier: 'k1', key: GITHUB_KEY.publicKey.export({ type: 'spki', format: 'pem' }) }],
});

interface Part {
  name: string;
  child: ChildProcess;
  url: string;
  output: string[];
  exit: Promise<number | null>;
}

let buildDir: string;
let database: { url: string; drop: () => Promise<void> };
let identityRuntime: IdentityRuntime | undefined;
const parts: Part[] = [];
let identity: Part;
let gateway: Part;
let rest: Part;
let alice: Tenant;
let bob: Tenant;

/** Builds once into a private folder (a concurrent `npm start` or build cannot delete files under us). */
function build(): string {
  const out = path.join('.build', `distributed-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', out], { cwd: ROOT, stdio: 'pipe' });
  const dir = path.join(ROOT, out);
  if (existsSync(path.join(dir, 'gateway', 'main.js'))) return dir;
  // A build script without --out-dir wrote to dist/.
  return path.join(ROOT, 'dist');
}

/** Starts `<build>/<entry>` with PORT=0 and resolves once it logs the port it listens on. */
function startPart(name: string, entry: string, env: Record<string, string>): Promise<Part> {
  const child = spawn(process.execPath, [path.join(buildDir, entry)], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: '0',
      ENVIRONMENT: 'production',
      INTERNAL_KEY,
      DATA_DIR: path.join(buildDir, 'data'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exit = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
  return new Promise<Part>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in time:\n${output.join('\n')}`)),
      START_TIMEOUT_MS,
    );
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        output.push(line);
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === 'listening' && entry.port) {
            clearTimeout(timer);
            const part = { name, child, url: `http://127.0.0.1:${entry.port}`, output, exit };
            parts.push(part);
            resolve(part);
          }
        } catch {
          // not a log line
        }
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
    void exit.then(code => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} never became healthy`);
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

async function stopAll(): Promise<void> {
  await Promise.all(
    parts.map(async part => {
      if (part.child.exitCode !== null || part.child.signalCode !== null) return;
      part.child.kill('SIGTERM');
      const timer = setTimeout(() => part.child.kill('SIGKILL'), 15_000);
      await part.exit;
      clearTimeout(timer);
    }),
  );
}

beforeAll(async () => {
  buildDir = build();
  database = await createTestDatabase('distributed');
  identity = await startPart('identity', 'subgraphs/identity/main.js', {
    DATABASE_URL: database.url,
    SECRET: TEST_SECRET,
  });
  // The webhooks subgraph with its delivery worker; loopback targets allowed for the receiver below.
  const webhooks = await startPart('webhooks', 'subgraphs/webhooks/main.js', {
    DATABASE_URL: database.url,
    SECRET: TEST_SECRET,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const billing = await startPart('billing', 'subgraphs/billing/main.js', {
    DATABASE_URL: database.url,
    SECRET: TEST_SECRET,
    PUBLIC_URL,
    WEBHOOKS_URL: webhooks.url,
  });
  gateway = await startPart('gateway', 'gateway/main.js', {
    IDENTITY_URL: identity.url,
    BILLING_URL: billing.url,
    WEBHOOKS_URL: webhooks.url,
  });
  rest = await startPart('rest-adapter', 'rest-adapter/main.js', {
    GATEWAY_URL: gateway.url,
    IDENTITY_URL: identity.url,
    BILLING_URL: billing.url,
    PUBLIC_URL: PUBLIC_URL,
    GITHUB_SECRET_SCANNING_KEYS: GITHUB_KEYS,
  });
  await Promise.all([
    waitFor(`${identity.url}/readyz`),
    waitFor(`${gateway.url}/readyz`),
    waitFor(`${rest.url}/readyz`),
  ]);

  // Tenants are created the way the CLI does it: an IdentityAdmin on the same database and SECRET.
  identityRuntime = await startIdentity({
    databaseUrl: database.url,
    secret: TEST_SECRET,
    clock: systemClock,
    poolMax: 2,
  });
  const admin = new IdentityAdmin(identityRuntime.orm, identityRuntime.services, systemClock, TEST_SECRET);
  const env = { admin, baseUrl: rest.url } as unknown as RunningEnvironment;
  alice = await createTenant(env);
  bob = await createTenant(env);
}, 240_000);

afterAll(async () => {
  await stopAll();
  await identityRuntime?.close();
  await database?.drop();
  if (buildDir && !buildDir.endsWith(`${path.sep}dist`)) await rm(buildDir, { recursive: true, force: true });
}, 60_000);

/** On failure, the children's logs say why. */
function logsOf(part: Part): string {
  return `--- ${part.name} ---\n${part.output.slice(-40).join('\n')}`;
}

describe('REST through the distributed chain', () => {
  it('lists the organization of an organization token', async () => {
    const res = await call(rest.url, 'GET', '/v1/organizations/', { token: alice.oat });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}\n${parts.map(logsOf).join('\n')}`);
    expect(res.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);
    expect(res.body.pagination).toEqual({ total_count: 1, max_page: 1 });
    expect(res.headers.get('x-polar-sandbox')).toBeNull();
  });

  it('gets and updates one organization', async () => {
    const got = await call(rest.url, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.oat });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: alice.organizationId, slug: alice.slug });

    const patched = await call(rest.url, 'PATCH', `/v1/organizations/${alice.organizationId}`, {
      token: alice.oat,
      body: { name: 'Renamed over the wire', website: 'https://distributed.example' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      id: alice.organizationId,
      name: 'Renamed over the wire',
      website: 'https://distributed.example',
    });

    const again = await call(rest.url, 'GET', `/v1/organizations/${alice.organizationId}`, { token: alice.pat });
    expect(again.body.name).toBe('Renamed over the wire');
  });

  it('answers an unknown bearer with the OAuth-shaped 401', async () => {
    for (const token of ['polar_oat_unknownunknownunknownunknownunknown', 'not-a-polar-token']) {
      const res = await call(rest.url, 'GET', '/v1/organizations/', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'invalid_token',
        error_description: 'The access token provided is expired, revoked, malformed, or invalid for other reasons.',
      });
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('creates and reads a customer, and a customer session token is resolved by billing', async () => {
    const created = await call(rest.url, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `dist-${Date.now()}@example.com`, name: 'Distributed' },
    });
    if (created.status !== 201) throw new Error(`${created.status} ${created.text}\n${parts.map(logsOf).join('\n')}`);
    expect(created.body).toMatchObject({
      name: 'Distributed',
      organization_id: alice.organizationId,
      type: 'individual',
    });
    expect((await call(rest.url, 'GET', `/v1/customers/${created.body.id}`, { token: alice.oat })).body.id).toBe(
      created.body.id,
    );
    expect((await call(rest.url, 'GET', `/v1/customers/${created.body.id}`, { token: bob.oat })).status).toBe(404);

    const session = await call(rest.url, 'POST', '/v1/customer-sessions/', {
      token: alice.oat,
      body: { customer_id: created.body.id },
    });
    expect(session.status).toBe(201);
    expect(session.body.customer_portal_url.startsWith(`${PUBLIC_URL}/portal?customer_session_token=polar_cst_`)).toBe(
      true,
    );
    const me = await call(rest.url, 'GET', '/v1/customer-portal/customers/me', { token: session.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: created.body.id, name: 'Distributed' });
    expect((await call(rest.url, 'GET', '/v1/customers/', { token: session.body.token })).status).toBe(401);
    const unknown = await call(rest.url, 'GET', '/v1/customer-portal/customers/me', {
      token: `polar_cst_${'x'.repeat(43)}`,
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid_token');
  });

  it('treats a request without credentials as anonymous', async () => {
    const res = await call(rest.url, 'GET', '/v1/organizations/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', detail: 'Unauthorized' });
  });

  it('delivers a billing event to a webhook: outbox relay → signed RPC → webhooks process → receiver', async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const endpoint = await call(rest.url, 'POST', '/v1/webhooks/endpoints', {
        token: alice.oat,
        body: { url: receiver.url('/hook'), format: 'raw', events: ['customer.created'] },
      });
      expect(endpoint.status).toBe(201);
      const customer = await call(rest.url, 'POST', '/v1/customers/', {
        token: alice.oat,
        body: { email: `webhook-${Date.now()}@example.com` },
      });
      expect(customer.status).toBe(201);
      // Earlier tests' customers may arrive too (the endpoint subscribes before their events are relayed).
      const ours = () => receiver.on('/hook').find(r => JSON.parse(r.body).data.id === customer.body.id);
      await receiver.until(() => ours() !== undefined, 'customer.created');
      const hook = ours()!;
      const event = validateEvent(hook.body, hook.headers as Record<string, string>, endpoint.body.secret);
      expect(event).toMatchObject({ type: 'customer.created', data: { id: customer.body.id } });
    } finally {
      await receiver.close();
    }
  });

  it("hides another tenant's organization behind a 404", async () => {
    const res = await call(rest.url, 'GET', `/v1/organizations/${bob.organizationId}`, { token: alice.oat });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ResourceNotFound', detail: expect.any(String) });
  });

  it('runs GraphQL through adapter, gateway and subgraph', async () => {
    const res = await call(rest.url, 'POST', '/graphql', {
      token: bob.oat,
      body: {
        query: 'query Mine { organizations { items { id slug } pagination { totalCount } } }',
        operationName: 'Mine',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { organizations: { items: [{ id: bob.organizationId, slug: bob.slug }], pagination: { totalCount: 1 } } },
    });

    const foreign = await call(rest.url, 'POST', '/graphql', {
      token: bob.oat,
      body: { query: 'query($id: ID!) { organization(id: $id) { id } }', variables: { id: alice.organizationId } },
    });
    expect(foreign.body.data).toBeNull();
    expect(foreign.body.errors[0].extensions).toEqual({ code: 'ResourceNotFound', http: { status: 404 } });

    const invalid = await call(rest.url, 'POST', '/graphql', { token: bob.oat, body: { query: '{ nope }' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('serves health, readiness and the OpenAPI document', async () => {
    for (const part of [identity, gateway, rest]) {
      expect((await call(part.url, 'GET', '/healthz')).status).toBe(200);
      expect((await call(part.url, 'GET', '/readyz')).status).toBe(200);
    }
    const openapi = await call(rest.url, 'GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.servers[0].url).toBe(PUBLIC_URL);
  });

  it('revokes leaked tokens GitHub reports, through identity and billing (signed RPC)', async () => {
    const oat = await new IdentityAdmin(
      identityRuntime!.orm,
      identityRuntime!.services,
      systemClock,
      TEST_SECRET,
    ).createOrganizationAccessToken(alice.organizationId, ['organizations:read']);
    const customer = await call(rest.url, 'POST', '/v1/customers/', {
      token: alice.oat,
      body: { email: `leak-${Date.now()}@example.com` },
    });
    const session = await call(rest.url, 'POST', '/v1/customer-sessions/', {
      token: alice.oat,
      body: { customer_id: customer.body.id },
    });
    const cst = session.body.token as string;
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token: oat })).status).toBe(200);
    expect((await call(rest.url, 'GET', '/v1/customer-portal/customers/me', { token: cst })).status).toBe(200);
    const body = JSON.stringify([
      { token: oat, type: 'polar_organization_access_token', source: 'content' },
      { token: cst, type: 'polar_customer_session_token', source: 'content' },
    ]);
    const answer = await call(rest.url, 'POST', '/v1/integrations/github/secret-scanning', {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'github-public-key-identifier': 'k1',
        'github-public-key-signature': createSign('SHA256').update(body).sign(GITHUB_KEY.privateKey, 'base64'),
      },
    });
    if (answer.status !== 200) throw new Error(`${answer.status} ${answer.text}\n${parts.map(logsOf).join('\n')}`);
    expect(answer.body.map((r: { label: string }) => r.label)).toEqual(['true_positive', 'true_positive']);
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token: oat })).status).toBe(401);
    expect((await call(rest.url, 'GET', '/v1/customer-portal/customers/me', { token: cst })).status).toBe(401);
  });

  it('stops honouring a revoked token within the cache lifetime', async () => {
    const token = await new IdentityAdmin(
      identityRuntime!.orm,
      identityRuntime!.services,
      systemClock,
      TEST_SECRET,
    ).createOrganizationAccessToken(alice.organizationId, ['organizations:read']);
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token })).status).toBe(200);
    await new IdentityAdmin(identityRuntime!.orm, identityRuntime!.services, systemClock, TEST_SECRET).revokeToken(
      token,
    );
    const deadline = Date.now() + 20_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise(resolve => setTimeout(resolve, 500));
      status = (await call(rest.url, 'GET', '/v1/organizations/', { token })).status;
    }
    expect(status).toBe(401);
  }, 30_000);
});

describe('a subgraph refuses requests that did not come through the gateway', () => {
  const principalOf = (tenant: Tenant): Principal => ({
    subject: 'organization',
    subjectId: tenant.organizationId,
    credential: 'organization_access_token',
    scopes: ['organizations:read'],
    organizationIds: [tenant.organizationId],
    tokenId: null,
  });
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call(url, 'POST', '/graphql', { body, headers });
  const listQuery = { query: '{ organizations { items { id } } }' };
  const unauthenticated = (res: { status: number; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'UNAUTHENTICATED' } }] });
  };

  it('answers a correctly signed request (the control case)', async () => {
    const res = await post(identity.url, listQuery, {
      [PRINCIPAL_HEADER]: signPrincipal(principalOf(alice), INTERNAL_KEY),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { organizations: { items: [{ id: alice.organizationId }] } } });
  });

  it('refuses a request without the signed principal', async () => {
    unauthenticated(await post(identity.url, listQuery));
  });

  it('refuses a principal signed with another key', async () => {
    unauthenticated(
      await post(identity.url, listQuery, {
        [PRINCIPAL_HEADER]: signPrincipal(principalOf(bob), `wrong-${INTERNAL_KEY}`),
      }),
    );
  });

  it('refuses an expired signature', async () => {
    const stale = signPrincipal(principalOf(alice), INTERNAL_KEY, Date.now() - 5 * 60_000);
    unauthenticated(await post(identity.url, listQuery, { [PRINCIPAL_HEADER]: stale }));
  });

  it('refuses a tampered principal', async () => {
    const [, issued, mac] = signPrincipal(principalOf(alice), INTERNAL_KEY).split('.');
    const forged = Buffer.from(JSON.stringify(principalOf(bob))).toString('base64url');
    unauthenticated(await post(identity.url, listQuery, { [PRINCIPAL_HEADER]: `${forged}.${issued}.${mac}` }));
  });

  it('guards the federation fields too', async () => {
    unauthenticated(await post(identity.url, { query: '{ _service { sdl } }' }));
    unauthenticated(
      await post(identity.url, {
        query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Organization { id name } } }',
        variables: { r: [{ __typename: 'Organization', id: bob.organizationId }] },
      }),
    );
    const signed = await post(
      identity.url,
      { query: '{ _service { sdl } }' },
      { [PRINCIPAL_HEADER]: signPrincipal(ANONYMOUS, INTERNAL_KEY) },
    );
    expect(signed.status).toBe(200);
    expect(signed.body.data._service.sdl).toContain('type Organization');
  });

  it('the gateway refuses requests that did not come through the REST adapter', async () => {
    unauthenticated(await post(gateway.url, listQuery));
    unauthenticated(
      await post(gateway.url, listQuery, {
        [PRINCIPAL_HEADER]: signPrincipal(principalOf(alice), `wrong-${INTERNAL_KEY}`),
      }),
    );
    const signed = await post(gateway.url, listQuery, {
      [PRINCIPAL_HEADER]: signPrincipal(principalOf(alice), INTERNAL_KEY),
    });
    expect(signed.status).toBe(200);
    expect(signed.body.data.organizations.items).toEqual([{ id: alice.organizationId }]);
  });

  it('guards the principal endpoint with a signed, fresh body', async () => {
    const body = JSON.stringify({ authorization: `Bearer ${alice.oat}` });
    const send = (headers: Record<string, string>, payload = body) =>
      call(identity.url, 'POST', INTERNAL_PRINCIPAL_PATH, {
        rawBody: payload,
        headers: { 'content-type': 'application/json', ...headers },
      });

    const ok = await send(signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, INTERNAL_KEY));
    expect(ok.status).toBe(200);
    expect(ok.body.principal).toMatchObject({ subject: 'organization', subjectId: alice.organizationId });

    expect((await send({})).status).toBe(401);
    expect(
      (await send(signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, `wrong-${INTERNAL_KEY}`))).status,
    ).toBe(401);
    expect(
      (await send(signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, INTERNAL_KEY, Date.now() - 5 * 60_000)))
        .status,
    ).toBe(401);
    // A signature is bound to its body: replaying it with another token fails.
    const headers = signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, INTERNAL_KEY);
    expect((await send(headers, JSON.stringify({ authorization: `Bearer ${bob.oat}` }))).status).toBe(401);

    const unknownBody = JSON.stringify({ authorization: 'Bearer polar_oat_unknownunknownunknownunknownunknown' });
    const unknown = await send(
      signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, unknownBody, INTERNAL_KEY),
      unknownBody,
    );
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: { code: 'invalid_token', message: expect.any(String), status: 401 } });
  });
});

const PASSWORD = 'correct horse battery'; // what createTenant gives its users
const REDIRECT_URI = 'https://client.example/callback';

/** The raw token of the "Access token created" page. */
function createdTokenOf(html: string): string {
  const match = /<output id="new-token"[^>]*>([^<]+)<\/output>/.exec(html);
  if (!match) throw new Error(`no token on the page: ${html.slice(0, 400)}`);
  return match[1];
}

/** The hidden inputs of the consent form (the carried authorization request). */
function hiddenInputsOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[match[1]] = match[2]
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  return out;
}

describe('sign-in and settings pages through the public REST adapter', () => {
  it('signs in a user created by the operator, creates an organization token in the settings form, and the token works', async () => {
    const browser = new WebClient(rest.url);
    const login = await browser.logIn(alice.email, PASSWORD);
    if (login.status !== 303) throw new Error(`${login.status} ${login.text}\n${parts.map(logsOf).join('\n')}`);
    expect(login.location).toBe('/settings');
    expect(browser.cookies.has('polar_session')).toBe(true);

    const settings = await browser.get('/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain(`Signed in as <strong>${alice.email}</strong>`);
    expect(settings.text).toContain(`href="/settings/organizations/${alice.organizationId}"`);

    const page = `/settings/organizations/${alice.organizationId}`;
    const organization = await browser.get(page);
    expect(organization.status).toBe(200);
    const form = { comment: 'made in the distributed settings', scopes: ['organizations:read'], expires_in: 'P30D' };

    // Without the page's CSRF token the form is refused and nothing is created.
    const forged = await browser.post(`${page}/tokens`, { ...form, csrf_token: 'forged' });
    expect(forged.status).toBe(403);

    const created = await browser.post(`${page}/tokens`, { ...form, csrf_token: csrfTokenOf(organization.text) });
    expect(created.status).toBe(200);
    expect(created.text).toContain('Access token created');
    const token = createdTokenOf(created.text);
    expect(token.startsWith('polar_oat_')).toBe(true);

    const listed = await call(rest.url, 'GET', '/v1/organizations/', { token });
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);
    const listing = await browser.get(page);
    expect(listing.text).toContain('made in the distributed settings');
  });

  it('refuses wrong credentials with the same page, and signs up, creates an organization and signs out', async () => {
    const browser = new WebClient(rest.url);
    const wrong = await browser.post('/login', {
      email: alice.email,
      password: 'not the password',
      csrf_token: await browser.csrfFrom('/login'),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Incorrect email or password.');

    const email = `signup-${process.pid}-${Date.now()}@example.com`;
    const signup = await browser.post('/signup', {
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      csrf_token: await browser.csrfFrom('/signup'),
    });
    expect(signup.status).toBe(303);
    const empty = await browser.get('/settings');
    expect(empty.text).toContain('You are not a member of any organization yet.');

    const slug = `dist-${process.pid}-${Date.now()}`;
    const created = await browser.post('/settings/organizations', {
      name: 'Signed up over the wire',
      slug,
      csrf_token: csrfTokenOf(empty.text),
    });
    expect(created.status).toBe(303);
    expect(created.location).toMatch(/^\/settings\/organizations\/[0-9a-f-]{36}$/);
    const organization = await browser.get(created.location!);
    expect(organization.status).toBe(200);
    expect(organization.text).toContain('Signed up over the wire');
    expect(organization.text).toContain('your role: owner');

    const taken = await browser.post('/settings/organizations', {
      name: 'Same slug',
      slug,
      csrf_token: csrfTokenOf(organization.text),
    });
    // The validation error crossed the hop as itself: the form comes back with its message and values.
    expect(taken.status).toBe(400);
    expect(taken.text).toContain('An organization with this slug already exists.');
    expect(taken.text).toContain('value="Same slug"');

    // Another tenant's organization is not found, not forbidden.
    expect((await browser.get(`/settings/organizations/${bob.organizationId}`)).status).toBe(404);

    const logout = await browser.post('/logout', { csrf_token: csrfTokenOf(organization.text) });
    expect(logout.status).toBe(303);
    expect(browser.cookies.has('polar_session')).toBe(false);
    const after = await browser.get('/settings');
    expect(after.status).toBe(303);
    expect(after.location).toBe('/login');
  });
});

describe('OAuth 2.0 / OIDC through the public REST adapter', () => {
  it('discovery names the public URL as the issuer', async () => {
    const discovery = await call(rest.url, 'GET', '/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(PUBLIC_URL);
    expect(discovery.body.token_endpoint).toBe(`${PUBLIC_URL}/v1/oauth2/token`);
    expect(discovery.body.jwks_uri).toBe(`${PUBLIC_URL}/.well-known/jwks.json`);
  });

  it('runs the authorization-code flow: register, authorize, consent, token, userinfo, API call, id_token', async () => {
    const registered = await call(rest.url, 'POST', '/v1/oauth2/register', {
      body: {
        client_name: 'Distributed client',
        redirect_uris: [REDIRECT_URI],
        scope: 'openid email organizations:read',
        token_endpoint_auth_method: 'client_secret_post',
      },
    });
    if (registered.status !== 201)
      throw new Error(`${registered.status} ${registered.text}\n${parts.map(logsOf).join('\n')}`);
    const client = registered.body as { client_id: string; client_secret: string };

    const browser = new WebClient(rest.url);
    expect((await browser.logIn(alice.email, PASSWORD)).status).toBe(303);
    const verifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(8).toString('hex');
    const state = randomBytes(8).toString('hex');
    const authorize = await browser.get(
      `/oauth2/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: REDIRECT_URI,
        scope: 'openid email organizations:read',
        state,
        nonce,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      })}`,
    );
    expect(authorize.status).toBe(200);
    expect(authorize.text).toContain('Distributed client');

    const consent = await browser.post('/oauth2/consent', { ...hiddenInputsOf(authorize.text), action: 'allow' });
    expect(consent.status).toBe(303);
    const callback = new URL(consent.location!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(PUBLIC_URL);
    const code = callback.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const exchanged = await new WebClient(rest.url).post('/v1/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(exchanged.status).toBe(200);
    const tokens = JSON.parse(exchanged.text);
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'openid email organizations:read' });
    expect(tokens.access_token.startsWith('polar_at_u_')).toBe(true);

    const userinfo = await call(rest.url, 'GET', '/v1/oauth2/userinfo', { token: tokens.access_token });
    expect(userinfo.status).toBe(200);
    expect(userinfo.body).toMatchObject({ sub: alice.userId, email: alice.email });

    const organizations = await call(rest.url, 'GET', '/v1/organizations/', { token: tokens.access_token });
    expect(organizations.status).toBe(200);
    expect(organizations.body.items.map((o: any) => o.id)).toEqual([alice.organizationId]);

    const jwks = await call(rest.url, 'GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet(jwks.body), {
      issuer: PUBLIC_URL,
      audience: client.client_id,
    });
    expect(payload).toMatchObject({ sub: alice.userId, nonce });

    // The code is single-use across the hop too.
    const replay = await new WebClient(rest.url).post('/v1/oauth2/token', {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.text).error).toBe('invalid_grant');
  });
});

describe("identity's published contracts refuse calls that are not signed with the internal key", () => {
  const signIn = `${WEB_IDENTITY_RPC.prefix}/signIn`;
  const jwks = `${OAUTH2_PROVIDER_RPC.prefix}/jwks`;
  const send = (path: string, body: string, headers: Record<string, string>) =>
    call(identity.url, 'POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

  it('answers a signed call (the control case)', async () => {
    const body = JSON.stringify({ args: [alice.email, PASSWORD, null] });
    const ok = await send(signIn, body, signInternalRequest('POST', signIn, body, INTERNAL_KEY));
    expect(ok.status).toBe(200);
    expect(ok.body.result.token.startsWith('polar_us_')).toBe(true);
  });

  it('refuses unsigned, forged, stale and re-targeted calls', async () => {
    const body = JSON.stringify({ args: [alice.email, PASSWORD, null] });
    const refused = (res: { status: number; body: any }) => {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String), status: 401 } });
    };
    refused(await send(signIn, body, {}));
    refused(await send(jwks, '{"args":[]}', {}));
    refused(await send(signIn, body, signInternalRequest('POST', signIn, body, `wrong-${INTERNAL_KEY}`)));
    refused(await send(signIn, body, signInternalRequest('POST', signIn, body, INTERNAL_KEY, Date.now() - 5 * 60_000)));
    // A signature is bound to its path: a signed jwks call does not open signIn.
    refused(await send(signIn, body, signInternalRequest('POST', jwks, body, INTERNAL_KEY)));
    // Nobody but the adapter may revoke a token as "leaked".
    const leaked = `${LEAKED_TOKEN_RPC.prefix}/revokeLeaked`;
    const report = JSON.stringify({ args: [alice.oat] });
    refused(await send(leaked, report, {}));
    refused(await send(leaked, report, signInternalRequest('POST', leaked, report, `wrong-${INTERNAL_KEY}`)));
    expect((await call(rest.url, 'GET', '/v1/organizations/', { token: alice.oat })).status).toBe(200);
  });
});

describe('shutdown', () => {
  it('every part stops cleanly on SIGTERM', async () => {
    for (const part of parts) part.child.kill('SIGTERM');
    const codes = await Promise.all(parts.map(p => p.exit));
    expect(codes).toEqual(parts.map(() => 0));
  }, 30_000);
});
