import { projectRoot } from '../../kit/paths.js';
import { type ImportEdge, importGraph, importsRunningBackUp } from '../support/import-graph.js';

/**
 * How tangled the folders of a tree are: "imports running back up" (test/support/import-graph.ts) counts,
 * for every two folders that import each other, the imports of the smaller direction. A folder per
 * domain reads well when the domains form layers; each import against the grain is one the next change
 * has to think about.
 *
 * - `subgraphs/billing/`: its root files are left out. They are the subgraph's composition (`services.ts`,
 *   `resolvers.ts`, `runtime.ts`, `orm.ts`, `contract.ts`, `schema.ts`, `main.ts`), which import every
 *   folder by design, and `context.ts`, the per-request context type the resolvers take, which imports
 *   no folder. Counted as a group, they would charge each folder one import for the wiring, not for a
 *   tangle.
 * - `rest-adapter/`: its root files count as one group, `(root)`. Besides the assembly (`app.ts`,
 *   `assemble.ts`) they are helpers the folders share (`validation.ts`, `wire-errors.ts`, `raw-body.ts`,
 *   `gateway-client.ts`…), and a helper that imports a folder back is a tangle like any other.
 */
interface Limit {
  tree: string;
  rootFiles: 'grouped' | 'ignored';
  most: number;
}

const LIMITS: Limit[] = [
  { tree: 'subgraphs/billing/', rootFiles: 'ignored', most: 12 },
  { tree: 'rest-adapter/', rootFiles: 'grouped', most: 3 },
];

/** The measure, or what is over the limit: the total and every two-way pair with its counts. */
function overLimit(graph: Map<string, ImportEdge[]>, { tree, rootFiles, most }: Limit): string | null {
  const { total, pairs } = importsRunningBackUp(graph, tree, { rootFiles });
  if (total <= most) return null;
  const lines = pairs.map(
    ({ folders: [a, b], statements: [ab, ba], runningBackUp }) =>
      `  ${runningBackUp}: ${a} → ${b} ${ab}, ${b} → ${a} ${ba}`,
  );
  return `${tree}: ${total} imports running back up (at most ${most}), in ${pairs.length} two-way pairs:\n${lines.join('\n')}`;
}

describe('imports running back up between the top-level folders of a tree', () => {
  const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to, line: 1 });
  const graphOf = (edges: ImportEdge[]) => {
    const graph = new Map<string, ImportEdge[]>();
    for (const e of edges) graph.set(e.from, [...(graph.get(e.from) ?? []), e]);
    return graph;
  };
  // a ⇄ b (3 one way, 1 back), b → c one way, c ⇄ (root) (2 and 2), a test file and imports out of the tree.
  const handMade = graphOf([
    edge('t/a/one.ts', 't/b/x.ts'),
    edge('t/a/one.ts', 't/b/y.ts'),
    edge('t/a/two.ts', 't/b/x.ts'),
    edge('t/b/x.ts', 't/a/two.ts'),
    edge('t/b/y.ts', 't/c/z.ts'),
    edge('t/c/z.ts', 't/index.ts'),
    edge('t/c/z.ts', 't/context.ts'),
    edge('t/index.ts', 't/c/z.ts'),
    edge('t/context.ts', 't/c/z.ts'),
    edge('t/c/__tests__/z.test.ts', 't/a/one.ts'),
    edge('t/c/z.test.ts', 't/a/one.ts'),
    edge('t/c/z.ts', 'kit/log.ts'),
    edge('other/q.ts', 't/c/z.ts'),
    edge('t/a/one.ts', 'other/q.ts'),
  ]);

  it('sums the smaller direction of each two-way pair, leaving the root files out when told', () => {
    expect(importsRunningBackUp(handMade, 't/', { rootFiles: 'ignored' })).toEqual({
      total: 1,
      pairs: [{ folders: ['a', 'b'], statements: [3, 1], runningBackUp: 1 }],
    });
  });

  it('counts the root files as one group, (root), when told', () => {
    expect(importsRunningBackUp(handMade, 't/', { rootFiles: 'grouped' })).toEqual({
      total: 3,
      pairs: [
        { folders: ['(root)', 'c'], statements: [2, 2], runningBackUp: 2 },
        { folders: ['a', 'b'], statements: [3, 1], runningBackUp: 1 },
      ],
    });
  });

  it('is zero for folders in layers, and says which pairs are over the limit', () => {
    const layered = graphOf([edge('t/a/one.ts', 't/b/x.ts'), edge('t/b/x.ts', 't/c/z.ts')]);
    expect(importsRunningBackUp(layered, 't/', { rootFiles: 'grouped' })).toEqual({ total: 0, pairs: [] });
    expect(overLimit(handMade, { tree: 't/', rootFiles: 'grouped', most: 2 })).toBe(
      't/: 3 imports running back up (at most 2), in 2 two-way pairs:\n' +
        '  2: (root) → c 2, c → (root) 2\n' +
        '  1: a → b 3, b → a 1',
    );
    expect(overLimit(handMade, { tree: 't/', rootFiles: 'grouped', most: 3 })).toBeNull();
  });
});

describe('folder structure: few imports running back up', () => {
  const graph = importGraph(
    projectRoot(),
    LIMITS.map(({ tree }) => tree.replace(/\/$/, '')),
  );

  it.each(LIMITS)('$tree has at most $most', limit => {
    expect([...graph.keys()].filter(file => file.startsWith(limit.tree)).length).toBeGreaterThan(20);
    expect(overLimit(graph, limit)).toBeNull();
  });
});
