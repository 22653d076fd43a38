import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../kit/paths.js';

/**
 * Every test and hook gets its time limit from test/support/setup-hooks.ts, which wraps the globals
 * (`it`, `test`, `beforeAll`, …): set-up and tear-down hooks 5 minutes, since on a loaded two-core machine
 * whole files failed in their set-up at a test's 30 s (issue 29). The suite's runner (jest-light-runner,
 * docs/testing.md) has no `@jest/globals` module, which only Jest's own runtime provides: a file importing
 * from it would fail to load, and its hooks would bypass the limits. So test files use the globals.
 */
const TREES = ['test', 'kit', 'subgraphs', 'rest-adapter', 'gateway', 'embedded', 'cli', 'scripts', 'bench'];
const IMPORT = /from\s*'@jest\/globals'/;

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

  it('no test file imports from @jest/globals', () => {
    const offenders = files.filter(path => IMPORT.test(readFileSync(path, 'utf8')));
    expect(offenders.map(path => relative(root, path))).toEqual([]);
  });
});
