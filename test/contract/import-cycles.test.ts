import { projectRoot } from '../../kit/paths.js';
import { importCycles, importGraph } from '../support/import-graph.js';

/** The folders whose code ships (tests under `test/` may import anything). */
const SOURCE_FOLDERS = ['kit', 'subgraphs', 'gateway', 'rest-adapter', 'embedded', 'cli'];

const graph = importGraph(projectRoot(), SOURCE_FOLDERS);

describe('the import graph of kit/, subgraphs/, gateway/, rest-adapter/, embedded/ and cli/', () => {
  it('is read from the sources (multi-line and type-only imports included)', () => {
    expect(graph.size).toBeGreaterThan(200);
    // A type-only import and a multi-line one, so a parser that missed either would be caught here.
    expect(graph.get('subgraphs/billing/context.ts')).toContainEqual(
      expect.objectContaining({ to: 'subgraphs/billing/services.ts' }),
    );
    expect(graph.get('rest-adapter/oauth2/router.ts')).toContainEqual(
      expect.objectContaining({ to: 'subgraphs/identity/oauth2/oauth2.constants.ts' }),
    );
  });

  it('finds a cycle when there is one', () => {
    const edge = (from: string, to: string) => ({ from, to, specifier: to, line: 1 });
    const looped = new Map([
      ['a.ts', [edge('a.ts', 'b.ts')]],
      ['b.ts', [edge('b.ts', 'c.ts')]],
      ['c.ts', [edge('c.ts', 'a.ts'), edge('c.ts', 'd.ts')]],
      ['d.ts', []],
    ]);
    expect(importCycles(looped)).toEqual([{ files: ['a.ts', 'b.ts', 'c.ts'], loop: ['a.ts', 'b.ts', 'c.ts', 'a.ts'] }]);
  });

  it('has no cycles', () => {
    const cycles = importCycles(graph);
    const report = cycles.map(
      ({ files, loop }) => `${files.length} files in a cycle, e.g. ${loop.join(' → ')}\n  ${files.join('\n  ')}`,
    );
    expect(report).toEqual([]);
  });
});
