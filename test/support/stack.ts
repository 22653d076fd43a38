import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Clock, systemClock } from '../../kit/clock.js';
import { loadConfig, type EnvironmentName } from '../../kit/config.js';
import { keepIdleSocketsLonger } from '../../kit/http/idle-sockets.js';
import { createLogger } from '../../kit/logger.js';
import { ALL_SCOPES } from '../../kit/scopes.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { type IdentityRuntime, startIdentity } from '../../subgraphs/identity/runtime.js';
import { createMigratedTestDatabase } from './database.js';

export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

export interface RunningEnvironment {
  environment: Environment;
  baseUrl: string;
  admin: IdentityAdmin;
}

export interface TestStack {
  production: RunningEnvironment;
  sandbox: RunningEnvironment;
  close(): Promise<void>;
}

/**
 * Both environments as `npm start` builds them (subgraphs, gateway, REST adapter in one process),
 * each on its own fresh database, listening on a random loopback port. With `databases`, on those
 * instead (a restored backup): they are migrated like any start and left in place on close.
 */
export async function startTestStack(
  label: string,
  clock: Clock = systemClock,
  env: Record<string, string> = {},
  databases?: Record<EnvironmentName, string>,
): Promise<TestStack> {
  // No renewal scheduler on the wall clock: a test that moves its clock would see renewals at random moments
  // (the sandbox clock's advance runs them deterministically; RENEWAL_INTERVAL_MS in `env` turns it on).
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RENEWAL_INTERVAL_MS: '0', ...env });
  const logger = createLogger('silent');
  const started: { env: RunningEnvironment; server: Server; drop: () => Promise<void> }[] = [];
  const names: EnvironmentName[] = ['production', 'sandbox'];
  // Both copies at once: the copy is the server's work, and the file waits for it (docs/performance.md#the-test-suites-budget).
  const ready = await Promise.all(
    names.map(name =>
      databases
        ? { url: databases[name], drop: async () => undefined }
        : createMigratedTestDatabase(`${label}_${name}`),
    ),
  );
  // One after the other, as `npm start` stops them: closing both at once was the change in place when one
  // file's close once ran past its 60 s in a whole run (docs/performance.md#the-test-suites-budget).
  const closeAll = async () => {
    for (const { env, server, drop } of started) {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
      await env.environment.close();
      await drop();
    }
  };
  try {
    for (const [index, name] of names.entries()) {
      const database = ready[index];
      const environment = await startEnvironment({
        name,
        config,
        databaseUrl: database.url,
        secret: TEST_SECRET,
        clock,
        logger,
      });
      const server = await new Promise<Server>(resolve => {
        const s = keepIdleSocketsLonger(createServer(environment.app)).listen(0, '127.0.0.1', () => resolve(s));
      });
      const { port } = server.address() as AddressInfo;
      const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, clock, TEST_SECRET);
      started.push({ env: { environment, baseUrl: `http://127.0.0.1:${port}`, admin }, server, drop: database.drop });
    }
  } catch (error) {
    // What did start is stopped, and every copy dropped: a failed start (retried by the next file on a
    // shared stack) leaves no pools or timers behind in the worker.
    await closeAll().catch(() => undefined);
    for (const database of ready.slice(started.length)) await database.drop().catch(() => undefined);
    throw error;
  }
  return {
    production: started[0].env,
    sandbox: started[1].env,
    close: closeAll,
  };
}

export interface Tenant {
  userId: string;
  email: string;
  organizationId: string;
  slug: string;
  /** PAT with every scope. */
  pat: string;
  /** OAT with every scope, for the organization. */
  oat: string;
}

let counter = 0;

/**
 * Identity's admin on `databaseUrl`, as `cli bootstrap` runs it beside a service the test starts as
 * processes (same database and SECRET): the tenants it makes (`createTenant`) are that service's. The
 * caller closes `runtime`.
 */
export async function identityAdminOn(
  databaseUrl: string,
): Promise<{ runtime: IdentityRuntime; admin: IdentityAdmin }> {
  const runtime = await startIdentity({ databaseUrl, secret: TEST_SECRET, clock: systemClock, poolMax: 2 });
  return { runtime, admin: new IdentityAdmin(runtime.orm, runtime.services, systemClock, TEST_SECRET) };
}

/** A user who owns one organization, with a PAT and an OAT (what `cli bootstrap` creates). */
export async function createTenant(
  env: Pick<RunningEnvironment, 'admin'>,
  overrides: { slug?: string; name?: string } = {},
): Promise<Tenant> {
  counter += 1;
  const tag = `${process.pid}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
  const email = `owner-${tag}@example.com`;
  const user = await env.admin.createUser(email, 'correct horse battery');
  const slug = overrides.slug ?? `org-${tag}`;
  const organization = await env.admin.createOrganization(email, overrides.name ?? `Organization ${tag}`, slug);
  const pat = await env.admin.createPersonalAccessToken(user.id, [...ALL_SCOPES]);
  const oat = await env.admin.createOrganizationAccessToken(organization.id, [...ALL_SCOPES]);
  return { userId: user.id, email, organizationId: organization.id, slug, pat, oat };
}

/** fetch with a bearer token and JSON body; returns status, headers and the parsed body. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    headers?: Record<string, string>;
    rawBody?: string;
    /** Give up (the promise rejects with a TimeoutError) when no answer has come by then. */
    timeoutMs?: number;
  } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, signal });
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Every item of a paginated `/v1` list, page by page (100 a page), with `token`. */
export async function everyPage(baseUrl: string, path: string, token: string): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call(baseUrl, 'GET', `${path}?limit=100&page=${page}`, { token });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text}`);
    items.push(...res.body.items);
    if (page >= res.body.pagination.max_page) return items;
  }
}
