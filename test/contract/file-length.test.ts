import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../kit/paths.js';

/**
 * Small files: a source file says one thing, and one that grows past 400 lines has started to say two
 * (the subscription state machine was one 512-line file before it became state, requested and lifecycle;
 * the typed operation results one 2,075-line file before it became one per operations file). Tests,
 * migrations and data are not counted; generated files are, since a reader opens them too.
 */
const MOST_LINES = 400;
const TREES = ['kit', 'subgraphs', 'rest-adapter', 'gateway', 'embedded', 'cli', 'scripts', 'bench'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['__tests__', 'migrations', 'node_modules'].includes(entry.name) ? [] : sources(path);
    }
    return /\.(ts|mts|mjs)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const root = projectRoot();
const files = TREES.flatMap(tree => sources(join(root, tree))).map(path => ({
  file: relative(root, path).split('\\').join('/'),
  lines: readFileSync(path, 'utf8').split('\n').length,
}));

describe('source files stay small', () => {
  it('reads the trees (the check sees what it should)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some(f => f.file === 'rest-adapter/app.ts')).toBe(true);
  });

  it(`has no source file over ${MOST_LINES} lines`, () => {
    const long = files.filter(f => f.lines > MOST_LINES).map(f => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });
});
