import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../kit/paths.js';

/**
 * Set-up and tear-down hooks get 5 minutes (test/support/setup-hooks.ts wraps the global `beforeAll`
 * and `afterAll`). Jest hands a file that imports them from `@jest/globals` its own unwrapped copies,
 * with the 30 s of a test: on a loaded two-core machine whole files then failed in their set-up
 * (issue 29). So test files take the hooks from the globals, never from `@jest/globals`.
 */
const TREES = ['test', 'kit', 'subgraphs', 'rest-adapter', 'gateway', 'embedded', 'cli', 'scripts', 'bench'];
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'@jest\/globals'/g;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

const root = projectRoot();
const files = TREES.flatMap(tree => testFiles(join(root, tree)));

describe('set-up hooks get their budget', () => {
  it('reads the test files (the check sees what it should)', () => {
    expect(files.length).toBeGreaterThan(200);
  });

  it('no test file imports beforeAll or afterAll from @jest/globals', () => {
    const offenders = files.filter(path =>
      [...readFileSync(path, 'utf8').matchAll(IMPORT)].some(m => /\b(beforeAll|afterAll)\b/.test(m[1])),
    );
    expect(offenders.map(path => relative(root, path))).toEqual([]);
  });
});
