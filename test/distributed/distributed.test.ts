import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../kit/clock.js';
import { ANONYMOUS, PRINCIPAL_HEADER, type Principal, signPrincipal } from '../../kit/principal.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { INTERNAL_PRINCIPAL_PATH, signInternalRequest } from '../../kit/http/internal-auth.js';
import { type IdentityRuntime, startIdentity } from '../../subgraphs/identity/runtime.js';
import { createTestDatabase } from '../support/database.js';
import { call, createTenant, type RunningEnvironment, TEST_SECRET, type Tenant } from '../support/stack.js';

/**
 * The distributed topology as users deploy it: identity, gateway and REST adapter each a separate
 * `node <build>/<part>/main.js` process on loopback, one environment, sharing DATABASE_URL, SECRET and
 * INTERNAL_KEY. Requests go REST adapter → (signed) identity for the principal, → (signed) gateway →
 * (re-signed) identity subgraph; the subgraph and the gateway refuse anything unsigned.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INTERNAL_KEY = `internal-${randomBytes(24).toString('hex')}`;
const START_TIMEOUT_MS = 60_000;
const PUBLIC_URL = 'https://api.billing.example';

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
  const billing = await startPart('billing', 'subgraphs/billing/main.js', {
    DATABASE_URL: database.url,
    SECRET: TEST_SECRET,
    PUBLIC_URL,
  });
  gateway = await startPart('gateway', 'gateway/main.js', { IDENTITY_URL: identity.url, BILLING_URL: billing.url });
  rest = await startPart('rest-adapter', 'rest-adapter/main.js', {
    GATEWAY_URL: gateway.url,
    IDENTITY_URL: identity.url,
    BILLING_URL: billing.url,
    PUBLIC_URL: PUBLIC_URL,
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

describe('shutdown', () => {
  it('every part stops cleanly on SIGTERM', async () => {
    for (const part of parts) part.child.kill('SIGTERM');
    const codes = await Promise.all(parts.map(p => p.exit));
    expect(codes).toEqual(parts.map(() => 0));
  }, 30_000);
});
