import { spawnSync } from 'node:child_process';
import { rmSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../kit/config.js';
import { billingMigrations } from '../../subgraphs/billing/migrations/index.js';
import { identityMigrations } from '../../subgraphs/identity/migrations/index.js';
import { webhooksMigrations } from '../../subgraphs/webhooks/migrations/index.js';
import { createTestDatabase } from '../support/database.js';
import {
  buildDist,
  type Container,
  configVariables,
  containersOf,
  distPaths,
  exists,
  type K8sObject,
  named,
  OVERLAYS,
  ofKind,
  podsSelected,
  ROOT,
  render,
  requiredBy,
  workloads,
} from './support.js';

/**
 * The Kubernetes manifests (deploy/kubernetes, docs/kubernetes.md), rendered by kubectl's kustomize for
 * every overlay and checked offline: each object against the Kubernetes schemas (kubernetes-models), and
 * the properties an operator relies on. And the image's entry points: every script the manifests and
 * the Dockerfile run exists in the build, and the migration step migrates an empty database.
 */

/** Secrets the manifests must take by reference only. */
const SECRET_KEYS = [
  'DATABASE_URL',
  'SECRET',
  'INTERNAL_KEY',
  'REDIS_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
];
const SHUTDOWN_DRAIN_S =
  Number(
    /SHUTDOWN_TIMEOUT_MS = ([\d_]+)/
      .exec(readFileSync(path.join(ROOT, 'kit/process/run-service.ts'), 'utf8'))![1]
      .replace(/_/g, ''),
  ) / 1000;

const renders = new Map<string, K8sObject[]>();
let dist: string;

beforeAll(() => {
  for (const overlay of OVERLAYS) renders.set(overlay, render(overlay));
  dist = buildDist();
});
afterAll(() => {
  if (dist?.includes(`${path.sep}.build${path.sep}`)) rmSync(dist, { recursive: true, force: true });
});

/** The environment a container starts with: its ConfigMap, its values, and a stand-in for each required Secret key. */
function environmentOf(objects: K8sObject[], container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? [])
    Object.assign(env, named(objects, 'ConfigMap', from.configMapRef.name)!.data);
  for (const { name, value, valueFrom } of container.env ?? []) {
    if (value !== undefined) env[name] = value;
    else if (valueFrom?.secretKeyRef && !valueFrom.secretKeyRef.optional)
      env[name] = name.endsWith('_URL') ? `postgresql://stand-in@db.example/${name.toLowerCase()}` : 'x'.repeat(40);
  }
  if (env.REDIS_URL) env.REDIS_URL = 'redis://redis.example:6379';
  return env;
}

describe.each(OVERLAYS)('overlay %s', overlay => {
  const objects = () => renders.get(overlay)!;

  test('every object is valid against the Kubernetes schemas', async () => {
    const problems: string[] = [];
    for (const object of objects()) {
      const module = await import(`kubernetes-models/${object.apiVersion}/${object.kind}`);
      try {
        new module[object.kind](object).validate();
      } catch (error) {
        problems.push(`${object.kind}/${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(objects().map(o => o.kind))).toEqual(
      new Set([
        'ConfigMap',
        'Service',
        'Deployment',
        'Job',
        'HorizontalPodAutoscaler',
        'PodDisruptionBudget',
        'Ingress',
        'NetworkPolicy',
      ]),
    );
  });

  test('each role runs its entry point, the scheduler as one replica replaced with Recreate', () => {
    const commands = Object.fromEntries(
      workloads(objects()).map(w => [w.metadata.name, containersOf(w).map(c => c.command.join(' '))]),
    );
    expect(commands).toEqual({
      'billing-migrate': ['node dist/cli/migrate.js'],
      identity: ['node dist/subgraphs/identity/main.js'],
      billing: ['node dist/subgraphs/billing/main.js'],
      scheduler: ['node dist/subgraphs/billing/main.js'],
      webhooks: ['node dist/subgraphs/webhooks/main.js'],
      'webhook-worker': ['node dist/subgraphs/webhooks/worker.js'],
      gateway: ['node dist/gateway/main.js'],
      'rest-adapter': ['node dist/rest-adapter/main.js'],
    });
    const scheduler = named(objects(), 'Deployment', 'scheduler')!;
    expect(scheduler.spec.replicas).toBe(1);
    expect(scheduler.spec.strategy).toEqual({ type: 'Recreate' });
    // Renewals run in the scheduler only; the serving billing replicas have the loop off.
    const renewalInterval = (name: string) =>
      environmentOf(objects(), containersOf(named(objects(), 'Deployment', name)!)[0]).RENEWAL_INTERVAL_MS;
    expect(Number(renewalInterval('scheduler'))).toBeGreaterThan(0);
    expect(renewalInterval('billing')).toBe('0');
    expect(environmentOf(objects(), containersOf(named(objects(), 'Deployment', 'webhooks')!)[0]).WEBHOOK_WORKER).toBe(
      'false',
    );
  });

  test('every container has probes, limits and a non-root read-only root; shutdown fits the drain', () => {
    for (const workload of workloads(objects())) {
      const pod = workload.spec.template.spec;
      for (const container of containersOf(workload)) {
        const where = `${workload.metadata.name}/${container.name}`;
        expect([where, container.resources.limits]).toEqual([
          where,
          { cpu: expect.anything(), memory: expect.anything() },
        ]);
        expect([where, container.resources.requests]).toEqual([
          where,
          { cpu: expect.anything(), memory: expect.anything() },
        ]);
        expect([where, container.securityContext.runAsNonRoot ?? pod.securityContext.runAsNonRoot]).toEqual([
          where,
          true,
        ]);
        // The image's user is `node` by name; runAsNonRoot needs a number to check against.
        expect([where, container.securityContext.runAsUser ?? pod.securityContext.runAsUser]).toEqual([where, 1000]);
        expect([where, container.securityContext.readOnlyRootFilesystem]).toEqual([where, true]);
        expect([where, container.securityContext.allowPrivilegeEscalation]).toEqual([where, false]);
        const tmp = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp');
        expect(pod.volumes.find((v: { name: string }) => v.name === tmp?.name)?.emptyDir).toBeDefined();
        if (workload.kind === 'Job') continue;
        expect([
          where,
          container.readinessProbe && container.livenessProbe && container.startupProbe ? 'probes' : 'missing',
        ]).toEqual([where, 'probes']);
        if (container.ports) {
          expect([where, container.readinessProbe.httpGet.path, container.livenessProbe.httpGet.path]).toEqual([
            where,
            '/readyz',
            '/healthz',
          ]);
          // preStop lets the endpoints drop the pod, then the server drains (kit/process/run-service.ts).
          const preStop = Number(container.lifecycle.preStop.exec.command[1]);
          expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + SHUTDOWN_DRAIN_S);
        } else {
          expect([where, container.readinessProbe.exec.command]).toEqual([
            where,
            ['node', 'dist/kit/process/database-probe.js'],
          ]);
          expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(SHUTDOWN_DRAIN_S);
        }
      }
    }
  });

  test('secrets are referenced by name, never in the render', () => {
    expect(ofKind(objects(), 'Secret')).toEqual([]);
    const config = ofKind(objects(), 'ConfigMap').flatMap(c => Object.keys(c.data));
    expect(config.filter(key => SECRET_KEYS.includes(key))).toEqual([]);
    for (const workload of workloads(objects()))
      for (const container of containersOf(workload))
        for (const variable of container.env ?? [])
          if (SECRET_KEYS.includes(variable.name))
            expect([variable.name, variable.valueFrom?.secretKeyRef?.name]).toEqual([variable.name, 'billing-secrets']);
  });

  test('every role gets the variables it requires, and every variable is one kit/config.ts reads', () => {
    const known = configVariables();
    for (const workload of workloads(objects()))
      for (const container of containersOf(workload)) {
        const env = environmentOf(objects(), container);
        const entryPoint = distPaths(container.command)[0];
        const missing = requiredBy(entryPoint).filter(key => !env[key]);
        expect([entryPoint, missing]).toEqual([entryPoint, []]);
        // The worker signs owner e-mails to billing (BILLING_URL) with INTERNAL_KEY.
        if (env.BILLING_URL && entryPoint.endsWith('worker.js')) expect(env.INTERNAL_KEY).toBeTruthy();
        expect(Object.keys(env).filter(key => !known.has(key) && key !== 'NODE_OPTIONS')).toEqual([]);
        expect(() => loadConfig(env)).not.toThrow();
      }
    // Replicas of the adapter share rate limits and idempotency keys through Redis, and hear revocations.
    const adapter = environmentOf(objects(), containersOf(named(objects(), 'Deployment', 'rest-adapter')!)[0]);
    expect(adapter.REDIS_URL && adapter.DATABASE_URL).toBeTruthy();
  });

  test('services, the ingress, autoscalers and disruption budgets point at what exists', () => {
    for (const service of ofKind(objects(), 'Service')) {
      const pods = podsSelected(objects(), service.spec.selector);
      expect([service.metadata.name, pods.map(p => p.metadata.name)]).toEqual([
        service.metadata.name,
        [service.metadata.name],
      ]);
      const ports = pods[0].spec.template.spec.containers
        .flatMap((c: Container) => c.ports ?? [])
        .map((p: Container) => p.name);
      for (const port of service.spec.ports) expect(ports).toContain(port.targetPort);
    }
    const backends = ofKind(objects(), 'Ingress').flatMap(i =>
      i.spec.rules.flatMap((r: Container) => r.http.paths.map((p: Container) => p.backend.service.name)),
    );
    expect(backends).toEqual(['rest-adapter']);
    const scaled = ofKind(objects(), 'HorizontalPodAutoscaler').map(h => {
      const target = named(objects(), h.spec.scaleTargetRef.kind, h.spec.scaleTargetRef.name);
      // The autoscaler owns the count: a replicas field would be reset by every apply.
      expect([h.metadata.name, target?.spec.replicas]).toEqual([h.metadata.name, undefined]);
      expect(h.spec.minReplicas).toBeLessThanOrEqual(h.spec.maxReplicas);
      return target?.metadata.name;
    });
    expect(scaled.sort()).toEqual(['rest-adapter', 'webhook-worker']);
    for (const budget of ofKind(objects(), 'PodDisruptionBudget'))
      expect(podsSelected(objects(), budget.spec.selector.matchLabels).map(p => p.metadata.name)).toEqual([
        budget.metadata.name,
      ]);
  });

  test('network policies: only the adapter is open, subgraphs admit the gateway and their RPC callers, workers nothing', () => {
    const policies = ofKind(objects(), 'NetworkPolicy');
    const everything = workloads(objects())
      .map(w => w.metadata.name)
      .sort();
    const deny = policies.find(p => !p.spec.ingress)!;
    expect(
      podsSelected(objects(), deny.spec.podSelector.matchLabels)
        .map(w => w.metadata.name)
        .sort(),
    ).toEqual(everything);
    const admitted: Record<string, string[] | 'anyone'> = {};
    for (const policy of policies.filter(p => p.spec.ingress)) {
      const [target] = podsSelected(objects(), policy.spec.podSelector.matchLabels).map(w => w.metadata.name);
      for (const rule of policy.spec.ingress) {
        const ports =
          target &&
          named(objects(), 'Deployment', target)!.spec.template.spec.containers[0].ports.map(
            (p: Container) => p.containerPort,
          );
        for (const port of rule.ports) expect(ports).toContain(port.port);
        admitted[target] = rule.from
          ? rule.from
              .map((f: Container) => {
                const sources = podsSelected(objects(), f.podSelector.matchLabels);
                expect(sources).toHaveLength(1); // a selector that matches nothing admits nothing
                return sources[0].metadata.name;
              })
              .sort()
          : 'anyone';
      }
    }
    expect(admitted).toEqual({
      'rest-adapter': 'anyone',
      gateway: ['rest-adapter'],
      identity: ['billing', 'gateway', 'rest-adapter', 'scheduler'],
      billing: ['gateway', 'identity', 'rest-adapter', 'webhook-worker', 'webhooks'],
      webhooks: ['billing', 'gateway', 'scheduler'],
    });
  });

  test('every script the manifests run is in the build', () => {
    const argv = workloads(objects()).flatMap(w =>
      containersOf(w).flatMap(c => [
        ...(c.command ?? []),
        ...(c.args ?? []),
        ...['startupProbe', 'readinessProbe', 'livenessProbe'].flatMap(p => c[p]?.exec?.command ?? []),
      ]),
    );
    expect(distPaths(argv).length).toBeGreaterThan(0);
    expect(distPaths(argv).filter(p => !exists(dist, p))).toEqual([]);
  });
});

describe('the image', () => {
  test("the Dockerfile's and docker-compose's commands are in the build", () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const compose = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const commands = [...`${dockerfile}\n${compose}`.matchAll(/(?:CMD|command:)\s*(\[[^\]]*\])/g)].flatMap(
      m => JSON.parse(m[1]) as string[],
    );
    expect(distPaths(commands)).toContain('dist/embedded/main.js');
    expect(distPaths(commands).filter(p => !exists(dist, p))).toEqual([]);
  });

  test('the migration step migrates an empty database, again when nothing is pending, and the probe sees it', async () => {
    const database = await createTestDatabase('k8s_migrate');
    try {
      const run = (script: string, url: string) =>
        spawnSync(process.execPath, [path.join(dist, script)], {
          env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'info', DATABASE_ACQUIRE_TIMEOUT_MS: '3000' },
          encoding: 'utf8',
        });
      for (const attempt of [1, 2]) {
        const migrate = run('cli/migrate.js', database.url);
        expect([attempt, migrate.status, migrate.stderr]).toEqual([attempt, 0, '']);
        expect(migrate.stdout.match(/schema up to date/g)).toHaveLength(3);
      }
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const applied = async (schema: string) =>
        Number((await client.query(`select count(*) from ${schema}.mikro_orm_migrations`)).rows[0].count);
      expect([await applied('identity'), await applied('billing'), await applied('webhooks')]).toEqual([
        identityMigrations.length,
        billingMigrations.length,
        webhooksMigrations.length,
      ]);
      await client.end();
      expect(run('kit/process/database-probe.js', database.url).status).toBe(0);
      const unreachable = run('kit/process/database-probe.js', 'postgresql://nobody@127.0.0.1:1/none');
      expect([unreachable.status, unreachable.stderr]).toEqual([1, expect.stringContaining('database probe failed')]);
    } finally {
      await database.drop();
    }
  });
});
