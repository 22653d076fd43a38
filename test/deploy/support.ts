import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const KUSTOMIZE_DIR = path.join(ROOT, 'deploy/kubernetes');
export const OVERLAYS = readdirSync(path.join(KUSTOMIZE_DIR, 'overlays')).sort();

/** One rendered Kubernetes object, loosely typed: the tests read what they check. */
export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: any };
  spec?: any;
  data?: any;
};
export type Container = any;

const KUBECTL_MISSING = [
  'kubectl is required to render the Kubernetes manifests (deploy/kubernetes) and was not found.',
  "Install it with Debian's package: `apt-get install -y kubernetes-client` (kubectl 1.20 and later render them).",
].join('\n');

/** `kubectl kustomize <overlay>` as parsed objects; fails (never skips) without kubectl. */
export function render(overlay: string): K8sObject[] {
  const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(KUBECTL_MISSING);
  const yaml = execFileSync('kubectl', ['kustomize', path.join(KUSTOMIZE_DIR, 'overlays', overlay)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(yaml)
    .map(doc => doc.toJS() as K8sObject)
    .filter(Boolean);
}

/** `node scripts/build.mjs` into a private folder (a concurrent build cannot delete files under it): dist/'s contents. */
export function buildDist(): string {
  const out = path.join('.build', `k8s-${process.pid}-${randomBytes(3).toString('hex')}`);
  execFileSync(process.execPath, ['scripts/build.mjs', '--out-dir', out], { cwd: ROOT, stdio: 'pipe' });
  return path.join(ROOT, out);
}

export const ofKind = (objects: K8sObject[], kind: string) => objects.filter(o => o.kind === kind);
export const named = (objects: K8sObject[], kind: string, name: string) =>
  objects.find(o => o.kind === kind && o.metadata.name === name);

/** Deployments and Jobs: what runs pods. */
export const workloads = (objects: K8sObject[]) => objects.filter(o => o.kind === 'Deployment' || o.kind === 'Job');

export const containersOf = (workload: K8sObject): Container[] => [
  ...(workload.spec.template.spec.initContainers ?? []),
  ...workload.spec.template.spec.containers,
];

/** Whether `labels` has every label of a selector's matchLabels. */
export const selects = (matchLabels: Record<string, string> | undefined, labels: Record<string, string> = {}) =>
  Object.entries(matchLabels ?? {}).every(([k, v]) => labels[k] === v);

/** The pod templates' labels of every workload a selector matches. */
export const podsSelected = (objects: K8sObject[], matchLabels: Record<string, string>) =>
  workloads(objects).filter(w => selects(matchLabels, w.spec.template.metadata.labels));

/** The names of kit/config.ts's variables (its zod schema's keys). */
export function configVariables(): Set<string> {
  const source = readFileSync(path.join(ROOT, 'kit/config.ts'), 'utf8');
  const body = source.slice(
    source.indexOf('const schema = z.object({'),
    source.indexOf('/** Rules between variables. */'),
  );
  return new Set([...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map(m => m[1]));
}

/**
 * What an entry point refuses to start without: the keys of its `requireConfig(config, [...])` calls,
 * and a subgraph process's (kit/process/run-subgraph.ts).
 */
export function requiredBy(entryPoint: string): string[] {
  const source = readFileSync(path.join(ROOT, entryPoint.replace(/^dist\//, '').replace(/\.js$/, '.ts')), 'utf8');
  const keys = [...source.matchAll(/requireConfig\(\s*\w+,\s*\[([^\]]*)\]/g)].flatMap(m =>
    [...m[1].matchAll(/'([A-Z_]+)'/g)].map(k => k[1]),
  );
  if (source.includes('runSubgraph(')) keys.push('DATABASE_URL', 'SECRET', 'INTERNAL_KEY');
  return [...new Set(keys)];
}

/** The `dist/…` paths a command line names (node's script, a probe's script). */
export const distPaths = (argv: string[] = []) => argv.filter(a => a.startsWith('dist/'));

export const exists = (dir: string, distPath: string) => existsSync(path.join(dir, distPath.replace(/^dist\//, '')));
