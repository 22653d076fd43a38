// `npm run bench`: load-tests the embedded topology against a one-hop baseline, on loopback only.
//
//   (a) GET /v1/organizations/ with an organization access token, through the whole embedded stack
//       (REST adapter → gateway client → identity subgraph → PostgreSQL; a single-subgraph operation
//       like this one skips the gateway's execution machinery, see gateway/direct-operations.ts);
//   (b) the same data read with one GraphQL request (POST /graphql, OrganizationFields), which runs
//       through Apollo Server and the gateway;
//   (c) a bare node:http server answering (a)'s JSON from one PostgreSQL query (bench/baseline-server.ts).
//
// The service (`node dist/embedded/main.js`) and the baseline each run in a child process of their own,
// so neither shares an event loop with the load generator (autocannon, in this process). With
// DATABASE_URL set, a dedicated bench database is created on that server and dropped afterwards;
// otherwise the service runs its embedded PostgreSQL in a temporary DATA_DIR.
//
// Its targets (letters for BENCH_ONLY) and knobs: docs/performance.md#the-benchs-targets-and-knobs.
// No assertion on timing: it prints numbers and the targets they are read against.
import { bootstrap } from './tenant.js';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase, withDatabase } from '../kit/database/databases.js';
import { EMBEDDED_DATABASE_NAMES } from '../kit/database/environment-databases.js';
import { profileSummary } from './profile.js';
import { benchCheckouts, benchOrderTargets } from './orders.js';
import { benchSubscriptionOrders } from './subscription-orders.js';
import { benchSubscriptions, type Goal } from './subscriptions.js';
import { benchRenewals } from './renewals.js';
import { benchWebhooks } from './webhooks.js';
import { benchUsage } from './usage.js';
import { benchUsageBilling } from './usage-billing.js';
import { benchIdle } from './idle.js';
import { benchMetrics } from './metrics.js';
import { benchDashboard } from './dashboard.js';
import { benchObservabilityCost } from './observability-cost.js';
import { benchScaling } from './scaling.js';
import { organizationsQuery, startFlags } from './service-inputs.js';
import {
  type Child,
  freePort,
  type LoadOptions,
  type LoadResult,
  measure,
  memoryOf,
  sameJson,
  spawnNode,
  table,
  waitUntilReady,
} from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..'); // dist/ (or wherever the build went)
const SERVICE = path.join(root, 'embedded', 'main.js');
const BASELINE = path.join(here, 'baseline-server.js');
const OPERATIONS = path.join(root, 'schema', 'operations', 'organizations.graphql');

// Flags: --quick (every target at 1,000 subscriptions only, shorter runs), --profile (a CPU profile of
// the service, summarised by package at the end).
const quick = process.argv.includes('--quick');
const profile = process.argv.includes('--profile');
const RATIO_TARGET = 0.6;
const RSS_TARGET_MB = 350;

const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 4 : 8));
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? (quick ? 1 : 2));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn';
let cpuProfDir = process.env.BENCH_CPU_PROF;
// NOTE: the same V8 flags as `npm start` (read from package.json), so the speed and memory printed are what
// users get: the heap sizes there decide both (docs/performance.md).
const serviceFlags = (process.env.BENCH_SERVICE_FLAGS ?? startFlags(root)).split(/\s+/).filter(Boolean);
const only = new Set((process.env.BENCH_ONLY ?? 'i,a,b,c,x,n,s,w,k,o,p,q,r,u,m,d,e').split(',').map(s => s.trim()));

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
  for (const file of [SERVICE, BASELINE, OPERATIONS]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run the bench with "npm run bench" (it builds first)`);
  }
  const children: Child[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-bench-'));
  if (profile && !cpuProfDir) cpuProfDir = path.join(dataDir, 'cpu-profile');
  const goals: Goal[] = [];
  // As root the embedded PostgreSQL runs as the `postgres` user, which must be able to reach DATA_DIR.
  await chmod(dataDir, 0o755);
  cleanups.push(() => (process.env.BENCH_KEEP ? Promise.resolve() : rm(dataDir, { recursive: true, force: true })));

  try {
    const [port, sandboxPort, pgPort, baselinePort] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const secret = randomBytes(32).toString('hex');
    const external = process.env.DATABASE_URL;
    const benchDatabase = `bench_${randomBytes(4).toString('hex')}`;

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      // One load generator on one address: the per-address and per-caller limits would answer 429.
      RATE_LIMITS: 'off',
      LOG_LEVEL: logLevel,
      HOST: '127.0.0.1',
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      DATA_DIR: path.join(dataDir, 'data'),
      EMBEDDED_PG_PORT: String(pgPort),
      SECRET: secret,
    };
    for (const key of ['SANDBOX_DATABASE_URL', 'PUBLIC_URL', 'SANDBOX_PUBLIC_URL', 'REDIS_URL', 'DATABASE_URL'])
      delete env[key];
    if (external) {
      // The service creates `<bench>` and `<bench>_sandbox` on that server; both are dropped at the end.
      env.DATABASE_URL = withDatabase(external, benchDatabase);
      cleanups.push(async () => {
        for (const name of [benchDatabase, `${benchDatabase}_sandbox`])
          await dropDatabase(external, name).catch(error => log(`drop ${name}: ${error.message}`));
      });
    }

    log(
      `starting the service (${external ? `PostgreSQL at DATABASE_URL, database ${benchDatabase}` : 'embedded PostgreSQL'}) on :${port}`,
    );
    const nodeArgs = [
      ...serviceFlags,
      ...(cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : []),
    ];
    const service = spawnNode(SERVICE, [], env, nodeArgs);
    children.push(service);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(`${baseUrl}/readyz`, service);

    let databaseUrl: string;
    if (external) {
      databaseUrl = env.DATABASE_URL!;
    } else {
      const stored = JSON.parse(readFileSync(path.join(env.DATA_DIR!, 'secrets.json'), 'utf8')) as {
        embeddedDatabasePassword: string;
      };
      databaseUrl = `postgresql://postgres:${encodeURIComponent(stored.embeddedDatabasePassword)}@127.0.0.1:${pgPort}/${EMBEDDED_DATABASE_NAMES.production}`;
    }

    const tenant = await bootstrap(log, env, databaseUrl, secret);

    const baseline = spawnNode(BASELINE, [], {
      PATH: process.env.PATH,
      BASELINE_DATABASE_URL: databaseUrl,
      BASELINE_PORT: String(baselinePort),
      BASELINE_SECRET: secret,
      BASELINE_POOL_MAX: '10',
    });
    children.push(baseline);
    const baselineUrl = `http://127.0.0.1:${baselinePort}`;
    const auth = { authorization: `Bearer ${tenant.oat}` };

    // Sanity: every target answers 200 with the same organizations before anything is measured.
    const query = organizationsQuery(OPERATIONS);
    const graphqlBody = JSON.stringify({ query, operationName: 'BenchOrganizations' });
    const graphqlHeaders = { ...auth, 'content-type': 'application/json' };
    const rest = await fetch(`${baseUrl}/v1/organizations/`, { headers: auth });
    const restBody = (await rest.json()) as { items: { id: string }[] };
    if (rest.status !== 200) throw new Error(`(a) answered ${rest.status}: ${JSON.stringify(restBody)}`);
    const gql = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: graphqlHeaders, body: graphqlBody });
    const gqlBody = (await gql.json()) as { data?: { organizations: { items: { id: string }[] } }; errors?: unknown };
    if (gql.status !== 200 || gqlBody.errors) throw new Error(`(b) answered ${gql.status}: ${JSON.stringify(gqlBody)}`);
    let one: Response | undefined;
    for (let i = 0; i < 100 && !one; i++) {
      if (baseline.process.exitCode !== null) throw new Error(`the baseline exited: ${baseline.output()}`);
      one = await fetch(`${baselineUrl}/v1/organizations/`, { headers: auth }).catch(() => undefined);
      if (!one) await new Promise(r => setTimeout(r, 100));
    }
    if (one?.status !== 200) throw new Error(`(c) answered ${one?.status}: ${baseline.output()}`);
    const baselineBody = await one.json();
    if (restBody.items.length !== 1 || restBody.items[0].id !== tenant.organizationId)
      throw new Error(`(a) did not list the tenant: ${JSON.stringify(restBody)}`);
    if (gqlBody.data?.organizations.items[0]?.id !== tenant.organizationId)
      throw new Error('(b) did not list the tenant');
    if (!sameJson(restBody, baselineBody)) {
      log('WARNING: the baseline JSON differs from the service JSON:');
      log(`  service:  ${JSON.stringify(restBody)}`);
      log(`  baseline: ${JSON.stringify(baselineBody)}`);
    }

    // (i) the idle service, before any load: bench/idle.ts.
    if (only.has('i')) {
      const result = await benchIdle({
        servicePid: service.process.pid!,
        serverUrl: withDatabase(databaseUrl, 'postgres'),
        databases: external
          ? [benchDatabase, `${benchDatabase}_sandbox`]
          : [EMBEDDED_DATABASE_NAMES.production, EMBEDDED_DATABASE_NAMES.sandbox],
        settleSeconds: Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 5),
        seconds: Number(process.env.BENCH_IDLE_SECONDS ?? (quick ? 30 : 60)),
        log,
      });
      process.stdout.write(result.report);
      goals.push(...result.goals);
    }
    const idleMemory = memoryOf(service.process.pid!);
    const load = { connections, warmupSeconds, seconds };
    log(`load: ${connections} connections, ${warmupSeconds} s warm-up + ${seconds} s measured per target`);
    const skipped: LoadResult = {
      requestsPerSecond: NaN,
      p50: NaN,
      p99: NaN,
      total: 0,
      errors: 0,
      non2xx: 0,
      serverCpuUsPerRequest: NaN,
    };
    const run = async (target: string, label: string, options: Omit<LoadOptions, keyof typeof load>) => {
      if (!only.has(target)) return skipped;
      log(`(${target}) ${label}…`);
      return measure({ ...load, ...options });
    };
    const servicePid = service.process.pid;
    const a = await run('a', 'REST through the embedded stack', {
      url: `${baseUrl}/v1/organizations/`,
      headers: auth,
      serverPid: servicePid,
    });
    const b = await run('b', 'one GraphQL request', {
      url: `${baseUrl}/graphql`,
      method: 'POST',
      headers: graphqlHeaders,
      body: graphqlBody,
      serverPid: servicePid,
    });
    const mem = memoryOf(service.process.pid!);
    const c = await run('c', 'one-hop baseline', {
      url: `${baselineUrl}/v1/organizations/`,
      headers: auth,
      serverPid: baseline.process.pid,
    });

    const row = (label: string, r: LoadResult) => [
      label,
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.total),
      String(r.errors + r.non2xx),
      r.serverCpuUsPerRequest.toFixed(0),
    ];
    const ratio = a.requestsPerSecond / c.requestsPerSecond;
    const ran = only.has('a') || only.has('b') || only.has('c');
    const lines = [
      '',
      `GET /v1/organizations/ (1 organization, OAT) · ${connections} connections · ${seconds} s after ${warmupSeconds} s warm-up · ` +
        `node ${process.version} · ${os.cpus().length} CPUs · ${external ? 'external PostgreSQL' : 'embedded PostgreSQL'} · service LOG_LEVEL=${logLevel}${serviceFlags.length ? ` · service flags ${serviceFlags.join(' ')}` : ''}`,
      '',
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'failed', 'server CPU µs/req'],
        [
          row('(a) REST, embedded stack', a),
          row('(b) POST /graphql via the gateway', b),
          row('(c) one-hop node:http + pg', c),
        ],
      ),
      '',
      `ratio (a)/(c): ${ratio.toFixed(2)}  (target ≥ ${RATIO_TARGET}: ${ratio >= RATIO_TARGET ? 'met' : 'NOT met'})` +
        ` · server CPU per request (c)/(a): ${(c.serverCpuUsPerRequest / a.serverCpuUsPerRequest).toFixed(2)}`,
      `service resident memory after load: ${mem ? `${mem.rssMb.toFixed(0)} MB (peak ${mem.peakMb.toFixed(0)} MB, ${idleMemory?.rssMb.toFixed(0)} MB before load)` : 'unavailable (no /proc)'}` +
        `  (target < ${RSS_TARGET_MB} MB${mem ? `: ${mem.rssMb < RSS_TARGET_MB ? 'met' : 'NOT met'}` : ''})`,
      '',
    ];
    // With BENCH_ONLY naming none of a, b, c (e.g. only the webhooks) this table would be all NaN.
    if (ran) process.stdout.write(lines.join('\n'));
    if (only.has('a') && only.has('c'))
      goals.push({
        name: 'GET /v1/organizations/ vs baseline',
        measured: ratio,
        goal: `≥ ${RATIO_TARGET}`,
        met: ratio >= RATIO_TARGET,
      });
    // (x) target a with metrics, traces and both on against off, on fresh services: bench/observability-cost.ts.
    if (only.has('x')) {
      const x = await benchObservabilityCost({
        service: SERVICE,
        env,
        nodeArgs,
        databaseUrl,
        headers: auth,
        load,
        log,
      });
      process.stdout.write(x.report);
      goals.push(...x.goals);
    }
    // (n) the read path and confirms over 1, 2 and 4 API processes on one PostgreSQL: bench/scaling.ts.
    if (only.has('n')) {
      const { oat: token, organizationId } = await bootstrap(log, env, databaseUrl, secret, 'sandbox');
      const launch = { service: SERVICE, env, nodeArgs, databaseUrl, readHeaders: auth, load, log };
      process.stdout.write(await benchScaling({ ...launch, sandbox: { token, organizationId } }));
    }
    // (w) webhook deliveries per second against a bare HTTP client: bench/webhooks.ts.
    if (only.has('w')) process.stdout.write(await benchWebhooks({ databaseUrl, log }));
    // (u) usage ingest against a bare Node + pg server, and meter quantities against hand-written SQL.
    if (only.has('u'))
      process.stdout.write(
        await benchUsage({ baseUrl, servicePid: service.process.pid!, databaseUrl, tenant, load, log }),
      );
    // (e) the billing job's events → entries per second (bench/usage-billing.ts); (r) renewals: bench/renewals.ts.
    if (only.has('e')) process.stdout.write(await benchUsageBilling({ databaseUrl, quick, log }));
    if (only.has('r')) {
      const count = Number(process.env.BENCH_RENEWALS ?? (quick ? 2_000 : 100_000));
      process.stdout.write(await benchRenewals({ databaseUrl, count, log }));
    }
    if (only.has('s')) {
      const sizes =
        process.env.BENCH_SUBSCRIPTION_SIZES?.split(',').map(Number) ?? (quick ? [1_000] : [1_000, 1_000_000]);
      const result = await benchSubscriptions({
        baseUrl,
        baselineUrl,
        databaseUrl,
        organizationId: tenant.organizationId,
        token: tenant.oat,
        root,
        load,
        sizes,
        log,
      });
      process.stdout.write(result.report);
      goals.push(...result.goals);
    }
    // (o) and (p): bench/orders.ts.
    if (only.has('o') || only.has('p')) {
      const targets = { only, quick, baseUrl, baselineUrl, databaseUrl, tenant, load, service, baseline, log };
      goals.push(...(await benchOrderTargets(targets)));
    }
    if (only.has('q'))
      process.stdout.write(
        (await benchSubscriptionOrders({ baseUrl, databaseUrl, tenant, load, service, log })).report,
      );
    // (m) GET /v1/metrics/ for a year, daily, vs its statements (bench/metrics.ts), in an organization of its own.
    if (only.has('m')) {
      const own = await bootstrap(log, env, databaseUrl, secret);
      const result = await benchMetrics({ baseUrl, databaseUrl, tenant: own, seconds, warmupSeconds, quick, log });
      process.stdout.write(result.report);
      goals.push(...result.goals);
    }
    // (d) the dashboard pages' server time at 1M orders (bench/dashboard.ts), signed in as an organization's owner.
    if (only.has('d')) {
      const own = await bootstrap(log, env, databaseUrl, secret);
      const result = await benchDashboard({ baseUrl, databaseUrl, tenant: own, seconds, warmupSeconds, quick, log });
      process.stdout.write(result.report);
      goals.push(...result.goals);
    }
    if (only.has('k')) {
      const { oat, organizationId } = await bootstrap(log, env, databaseUrl, secret, 'sandbox');
      const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
      const result = await benchCheckouts({ sandboxUrl, token: oat, organizationId, seconds, warmupSeconds, log });
      process.stdout.write(result.report);
      goals.push(...result.goals);
    }
    const peak = memoryOf(service.process.pid!);
    if (peak)
      goals.push({
        name: 'resident memory of the service (peak)',
        measured: peak.peakMb,
        goal: `< ${RSS_TARGET_MB} MB`,
        met: peak.peakMb < RSS_TARGET_MB,
        unit: ' MB',
      });
    process.stdout.write(
      `\n${goals
        .map(
          g =>
            `target ${g.name}: ${g.shown ?? (g.unit ? `${g.measured.toFixed(g.unit === 's' ? 1 : 0)}${g.unit === 's' ? ' s' : g.unit}` : g.measured.toFixed(2))} (goal ${g.goal}) ${g.met ? 'met' : 'missed'}`,
        )
        .join('\n')}\n`,
    );
    if (a.errors + a.non2xx + b.errors + b.non2xx + c.errors + c.non2xx > 0)
      log('WARNING: some requests failed (see the "failed" column)');
  } finally {
    for (const child of children.reverse()) await child.stop();
    if (cpuProfDir) {
      log(`CPU profile of the service written to ${path.resolve(cpuProfDir)}`);
      process.stdout.write(
        `\n${await profileSummary(path.resolve(cpuProfDir)).catch(e => `profile summary failed: ${e.message}`)}\n`,
      );
    }
    for (const cleanup of cleanups.reverse())
      await cleanup().catch(error => log(`cleanup: ${(error as Error).message}`));
  }
}

main().then(
  () => process.exit(0),
  error => {
    process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
