import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { systemClock } from '../../kit/clock.js';
import { loadConfig } from '../../kit/config.js';
import { listenForPrincipalInvalidations } from '../../kit/database/principal-invalidations.js';
import { createLogger } from '../../kit/logger.js';
import { PrincipalCache } from '../../kit/principal-cache.js';
import { type Environment, startEnvironment } from '../../embedded/environment.js';
import { IdentityAdmin } from '../../subgraphs/identity/admin.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { createMigratedTestDatabase } from '../support/database.js';
import { call, createTenant, type RunningEnvironment, TEST_SECRET, type Tenant } from '../support/stack.js';

/**
 * Two complete stacks (subgraphs, gateway, REST adapter), each with its own principal caches, on one
 * database, as two replicas behind a load balancer are. A revocation made through one is refused by
 * the other on the very next request, though the other had just cached the principal: the writer
 * NOTIFYs, the other's listener evicts (kit/database/principal-invalidations.ts). A lost listen
 * connection clears the caches, since a notification may have been missed meanwhile.
 */

let database: { url: string; drop: () => Promise<void> };
const stacks: { environment: Environment; server: Server; env: RunningEnvironment }[] = [];
let a: RunningEnvironment;
let b: RunningEnvironment;
let owner: Tenant;

async function startStack(): Promise<RunningEnvironment> {
  const environment = await startEnvironment({
    name: 'production',
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    databaseUrl: database.url,
    secret: TEST_SECRET,
    clock: systemClock,
    logger: createLogger('silent'),
  });
  const server = await new Promise<Server>(resolve => {
    const s = environment.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const admin = new IdentityAdmin(environment.identity.orm, environment.identity.services, systemClock, TEST_SECRET);
  const env = { environment, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, admin };
  stacks.push({ environment, server, env });
  return env;
}

beforeAll(async () => {
  database = await createMigratedTestDatabase('revocation');
  a = await startStack();
  b = await startStack();
  owner = await createTenant(a);
});

afterAll(async () => {
  for (const { environment, server } of stacks) {
    server.closeAllConnections();
    await new Promise(resolve => server.close(resolve));
    await environment.close();
  }
  await database?.drop();
});

async function newOrganizationToken(): Promise<{ id: string; token: string }> {
  const created = await call(a.baseUrl, 'POST', '/v1/organization-access-tokens/', {
    token: owner.pat,
    body: { organization_id: owner.organizationId, comment: 'replica', scopes: ['organizations:read'] },
  });
  expect(created.status).toBe(201);
  return { id: created.body.organization_access_token.id, token: created.body.token };
}

describe('revocation reaches every stack at once', () => {
  it('an organization token revoked through one stack is invalid_token on the other', async () => {
    const { id, token } = await newOrganizationToken();
    // Both stacks now hold the resolved principal in their caches.
    for (const stack of [a, b])
      expect((await call(stack.baseUrl, 'GET', '/v1/organizations/', { token })).status).toBe(200);

    const revoked = await call(a.baseUrl, 'DELETE', `/v1/organization-access-tokens/${id}`, { token: owner.pat });
    expect(revoked.status).toBe(204);

    const onB = await call(b.baseUrl, 'GET', '/v1/organizations/', { token });
    expect(onB.status).toBe(401);
    expect(onB.body.error).toBe('invalid_token');
    expect((await call(a.baseUrl, 'GET', '/v1/organizations/', { token })).status).toBe(401);
  });

  it("a deleted customer's portal session is invalid_token on the other stack", async () => {
    const customer = await new BillingFixtures(a).customer(owner.organizationId);
    const session = await call(a.baseUrl, 'POST', '/v1/customer-sessions/', {
      token: owner.oat,
      body: { customer_id: customer.id },
    });
    expect(session.status).toBe(201);
    const token = session.body.token as string;
    expect((await call(b.baseUrl, 'GET', '/v1/customer-portal/customers/me', { token })).status).toBe(200);

    expect((await call(a.baseUrl, 'DELETE', `/v1/customers/${customer.id}`, { token: owner.oat })).status).toBe(204);

    const onB = await call(b.baseUrl, 'GET', '/v1/customer-portal/customers/me', { token });
    expect(onB.status).toBe(401);
    expect(onB.body.error).toBe('invalid_token');
  });

  it('a lost listen connection clears the caches: a revocation missed meanwhile is not served stale', async () => {
    const { id, token } = await newOrganizationToken();
    expect((await call(b.baseUrl, 'GET', '/v1/organizations/', { token })).status).toBe(200);

    // The stacks share this process's one listen connection for the database; cut it.
    const probe = await listenForPrincipalInvalidations(database.url, new PrincipalCache());
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const pid = probe.backendPid();
      expect(pid).not.toBeNull();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      // Revoked behind every cache's back: no NOTIFY, as if the notification was sent while nobody listened.
      await admin.query('update identity.organization_access_tokens set deleted_at = now() where id = $1', [id]);
      // Wait for the listener to come back (a new backend), then ask B.
      while (probe.backendPid() === null || probe.backendPid() === pid) {
        await new Promise(resolve => setTimeout(resolve, 20));
      }
      await probe.whenListening();
    } finally {
      await admin.end();
      await probe.close();
    }
    const onB = await call(b.baseUrl, 'GET', '/v1/organizations/', { token });
    expect(onB.status).toBe(401);

    // And it listens again: a revocation through A is seen by B at once.
    const second = await newOrganizationToken();
    expect((await call(b.baseUrl, 'GET', '/v1/organizations/', { token: second.token })).status).toBe(200);
    await call(a.baseUrl, 'DELETE', `/v1/organization-access-tokens/${second.id}`, { token: owner.pat });
    expect((await call(b.baseUrl, 'GET', '/v1/organizations/', { token: second.token })).status).toBe(401);
  });
});
