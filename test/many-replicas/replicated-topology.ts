import type { IdentityRuntime } from '../../subgraphs/identity/runtime.js';
import {
  beginParts,
  build,
  logsOf,
  type Part,
  PUBLIC_URL,
  removeBuild,
  startPart,
  stopAll,
  waitFor,
} from '../distributed/support.js';
import { deleteKeys, EXACT_REDIS_COUNTING, MACHINE_REDIS, redisReady, uniquePrefix } from '../limits/support.js';
import { databaseSettings, pgbouncerInstalled, type RunningPgBouncer, startPgBouncer } from '../pgbouncer/pgbouncer.js';
import { createTestDatabase, testServerUrl } from '../support/database.js';
import { createTenant, identityAdminOn, TEST_SECRET, type Tenant } from '../support/stack.js';
import { RoundRobinProxy } from './round-robin-proxy.js';

/**
 * The distributed topology with two replicas of every part (docs/kubernetes.md#many-replicas): two
 * identity, two billing (both with the renewal loop on, so both are schedulers too), two webhooks
 * subgraphs, two webhook workers, two gateways and two REST adapters, each a `node <build>/<part>/main.js`
 * process on loopback, one sandbox environment on one database. Each HTTP pair sits behind a
 * RoundRobinProxy (a Kubernetes Service): the gateways reach the subgraphs through the subgraphs'
 * proxies, the adapters the gateways, identity and billing through theirs, billing and identity each
 * other, the workers billing; the tests reach the adapters through the adapters' proxy, or one
 * adapter directly when the replica matters. The adapters count rate limits and keep idempotency keys
 * in the machine's Redis (a key prefix of the run) and LISTEN for revocations; the database is reached
 * through PgBouncer in transaction pooling mode when it is installed (twelve processes' pools would
 * not fit a shared test server otherwise), LISTEN and the migrations' lock directly.
 */

export const ROLES = ['identity', 'billing', 'webhooks', 'gateway', 'rest'] as const;
export type Role = (typeof ROLES)[number];

export interface ReplicatedTopology {
  /** The two replicas of each HTTP role, and the two webhook workers. */
  replicas: Record<Role | 'worker', Part[]>;
  /** Each HTTP role's Service. */
  proxies: Record<Role, RoundRobinProxy>;
  /** The adapters' Service: where clients send requests. */
  api: string;
  /** The database the parts share (direct, not through PgBouncer), for the tests' seeds and checks. */
  databaseUrl: string;
  /** A tenant to sell, expire checkouts, hold keys and create under load. */
  seller: Tenant;
  /** A tenant with its own low per-caller rate limit (`limit`). */
  limited: Tenant;
  /** A tenant whose subscriptions the tests seed due for renewal. */
  renewing: Tenant;
  limit: number;
}

const ENTRIES: Record<Role, string> = {
  identity: 'subgraphs/identity/main.js',
  billing: 'subgraphs/billing/main.js',
  webhooks: 'subgraphs/webhooks/main.js',
  gateway: 'gateway/main.js',
  rest: 'rest-adapter/main.js',
};

/** Registers the stack's set-up and tear-down; the topology is filled in by the time tests run. */
export function useReplicatedTopology(limit: number): ReplicatedTopology {
  const topology = { limit, replicas: {}, proxies: {} } as ReplicatedTopology;
  const prefix = uniquePrefix('many-replicas');
  let buildDir: string | undefined;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let bouncer: RunningPgBouncer | undefined;
  let identity: IdentityRuntime | undefined;

  beforeAll(async () => {
    beginParts();
    buildDir = build();
    database = await createTestDatabase('many_replicas');
    topology.databaseUrl = database.url;
    // 24 server connections for the eight processes with pools (DATABASE_POOL_SIZE 3 each): a
    // transaction that waits for another pool's connection must find one free (docs/pgbouncer.md).
    if (pgbouncerInstalled()) bouncer = await startPgBouncer(testServerUrl(), { poolSize: 24 });
    const databaseEnv = databaseSettings(bouncer, database.url);
    const proxies = topology.proxies;
    for (const role of ROLES) proxies[role] = await new RoundRobinProxy(role).listen();
    topology.api = proxies.rest.url;
    const common = { ...databaseEnv, ENVIRONMENT: 'sandbox', SECRET: TEST_SECRET, DATABASE_POOL_SIZE: '3' };
    const env: Record<Role, Record<string, string>> = {
      identity: { ...common, BILLING_URL: proxies.billing.url },
      webhooks: { ...common, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_WORKER: 'false' },
      // Both replicas schedule renewals (docs/kubernetes.md runs one scheduler; two must not renew twice).
      billing: {
        ...common,
        PUBLIC_URL,
        WEBHOOKS_URL: proxies.webhooks.url,
        IDENTITY_URL: proxies.identity.url,
        RENEWAL_INTERVAL_MS: '100',
        // Of two advances of one sandbox clock at once, the second waits for the first (409
        // SandboxClockBusy after 5 s by default, which a loaded machine reaches).
        SANDBOX_CLOCK_WAIT_MS: '60000',
      },
      gateway: {
        ENVIRONMENT: 'sandbox',
        IDENTITY_URL: proxies.identity.url,
        BILLING_URL: proxies.billing.url,
        WEBHOOKS_URL: proxies.webhooks.url,
      },
      rest: {}, // after the tenants: below
    };
    const startPair = async (role: Role) => {
      const pair = await Promise.all(
        [0, 1].map(i => startPart(`${role}-${i}`, ENTRIES[role], env[role], undefined, buildDir)),
      );
      for (const part of pair) proxies[role].add(part.url);
      topology.replicas[role] = pair;
    };
    // Identity and webhooks first (billing's peers), then billing; each pair migrates its schema under
    // the advisory lock, one replica waiting for the other.
    await Promise.all([startPair('identity'), startPair('webhooks')]);
    await startPair('billing');
    topology.replicas.worker = await Promise.all(
      [0, 1].map(i =>
        startPart(
          `webhook-worker-${i}`,
          'subgraphs/webhooks/worker.js',
          {
            ...common,
            BILLING_URL: proxies.billing.url,
            WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
            WEBHOOK_RETRY_BASE_MS: '2',
            WEBHOOK_RETRY_MAX_MS: '10',
          },
          'webhook worker started',
          buildDir,
        ),
      ),
    );
    await startPair('gateway');

    // Tenants as the CLI makes them (identity's admin on the database), before the adapters, whose
    // settings name the limited one.
    const tenants = await identityAdminOn(database.url);
    identity = tenants.runtime;
    topology.seller = await createTenant(tenants);
    topology.limited = await createTenant(tenants);
    topology.renewing = await createTenant(tenants);
    env.rest = {
      ...databaseEnv,
      ENVIRONMENT: 'sandbox',
      GATEWAY_URL: proxies.gateway.url,
      IDENTITY_URL: proxies.identity.url,
      BILLING_URL: proxies.billing.url,
      PUBLIC_URL,
      REDIS_URL: MACHINE_REDIS,
      REDIS_KEY_PREFIX: prefix,
      ...EXACT_REDIS_COUNTING,
      RATE_LIMITS: 'on',
      // Every request comes from 127.0.0.1: the address and default caller limits are out of the way,
      // and one organization's is low enough to count to.
      SANDBOX_RATE_LIMIT_RULES: 'ip=100000/min,principal=100000/min',
      RATE_LIMIT_OVERRIDES: `${topology.limited.organizationId}=${limit}`,
    };
    await startPair('rest');
    // Ready, not merely listening: each adapter's peers answer, and its counters are in Redis.
    const parts = ROLES.flatMap(role => topology.replicas[role]);
    await Promise.all(parts.map(part => waitFor(`${part.url}/readyz`, 60_000)));
    await Promise.all(
      topology.replicas.rest.map(part =>
        redisReady(part.url).catch(() => {
          throw new Error(`${part.name} never counted in Redis:\n${logsOf(part)}`);
        }),
      ),
    );
  }, 300_000);

  afterAll(async () => {
    await stopAll();
    for (const proxy of Object.values(topology.proxies)) await proxy.close();
    await identity?.close();
    await bouncer?.stop();
    await database?.drop();
    await deleteKeys(MACHINE_REDIS, prefix);
    await removeBuild(buildDir);
  }, 120_000);

  return topology;
}
