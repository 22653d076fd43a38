import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Every long-running process of the service starts with kit/process/heap-tuning.ts, before anything else
 * is loaded (docs/performance.md#the-heap-settings): a process that started without it would promote
 * what its requests' emitters hold and collect its whole heap ten times as often. The processes are the
 * ones the deployments run: `npm start`, the Dockerfile, docker-compose.yml and the Kubernetes manifests.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SERVICE_DIRS = /^dist\/((?:embedded|gateway|rest-adapter|subgraphs)\/[\w/-]+)\.js$/;

function deploymentFiles(): string[] {
  const manifests = path.join(ROOT, 'deploy', 'kubernetes');
  const yaml = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap(entry =>
      entry.isDirectory()
        ? yaml(path.join(dir, entry.name))
        : entry.name.endsWith('.yaml')
          ? [path.join(dir, entry.name)]
          : [],
    );
  return [
    path.join(ROOT, 'package.json'),
    path.join(ROOT, 'Dockerfile'),
    path.join(ROOT, 'docker-compose.yml'),
    ...yaml(manifests),
  ];
}

/** The TypeScript source of every service entry point a deployment runs, e.g. `subgraphs/webhooks/worker.ts`. */
function entryPoints(): string[] {
  const found = new Set<string>();
  for (const file of deploymentFiles())
    for (const [reference] of readFileSync(file, 'utf8').matchAll(/dist\/[\w/-]+\.js/g)) {
      const match = SERVICE_DIRS.exec(reference);
      if (match) found.add(`${match[1]}.ts`);
    }
  return [...found].sort();
}

describe('heap tuning', () => {
  const entries = entryPoints();

  it('finds the entry points the deployments run', () => {
    expect(entries).toEqual(
      expect.arrayContaining([
        'embedded/main.ts',
        'gateway/main.ts',
        'rest-adapter/main.ts',
        'subgraphs/billing/main.ts',
        'subgraphs/identity/main.ts',
        'subgraphs/webhooks/main.ts',
        'subgraphs/webhooks/worker.ts',
      ]),
    );
  });

  it.each(entries)('%s imports kit/process/heap-tuning.ts before anything else', entry => {
    const source = readFileSync(path.join(ROOT, entry), 'utf8');
    const firstImport = source.split('\n').find(line => line.startsWith('import '));
    const tuning = path.relative(path.dirname(path.join(ROOT, entry)), path.join(ROOT, 'kit/process/heap-tuning.js'));
    expect(firstImport).toBe(`import '${tuning.startsWith('.') ? tuning : `./${tuning}`}';`);
  });
});
