import { projectRoot } from '../../kit/paths.js';
import { type ImportEdge, importCycles, importGraph } from '../support/import-graph.js';

/**
 * The folders whose code ships, and the tools built beside it (`bench/`, `scripts/`: the build compiles
 * them with the rest, so they hold to the same rules). Tests under `test/` may import anything.
 */
const SOURCE_FOLDERS = ['kit', 'subgraphs', 'gateway', 'rest-adapter', 'embedded', 'cli', 'bench', 'scripts'];

/**
 * Composition roots: they start subgraphs (or a subgraph's workers) in-process, so they may also import
 * `runtime.ts` / `main.ts`. `bench/` is one: its webhook target runs the webhooks subgraph's ingest and
 * sender in its own process, and its baseline server opens billing's ORM metadata and read path (which
 * billing publishes in `contract.ts`, so the baseline needs no runtime either).
 */
const COMPOSITION_ROOTS = ['embedded/', 'cli/', 'bench/'];

/**
 * Schema tooling: `scripts/schema.ts` composes the supergraph from each subgraph's own schema build, so
 * `scripts/` may also import a subgraph's `schema.ts` (and, starting no subgraph, not its runtime). The
 * build is not in `contract.ts` because it loads every resolver, and the contract stays light.
 */
const SCHEMA_TOOLS = ['scripts/'];

/**
 * Exceptions to the boundary rule while a part is being moved behind its contract (none today). Each
 * entry is `from → to`; the test fails on an entry that no longer matches an import, so it only shrinks.
 */
const TEMPORARY_ALLOWED: readonly string[] = [];

const graph = importGraph(projectRoot(), SOURCE_FOLDERS);
const edges = [...graph.values()].flat();

/**
 * Why `edge` crosses a boundary it may not, or null. A subgraph publishes one module, `contract.ts`;
 * every file outside `subgraphs/<x>/` (the REST adapter, the gateway, the other subgraphs) imports only
 * that of it, composition roots also `runtime.ts` and `main.ts`, and `kit/` imports no subgraph at all.
 * Tests (`__tests__/`, `test/`) may reach inside.
 */
function boundaryViolation({ from, to }: Pick<ImportEdge, 'from' | 'to'>): string | null {
  if (from.includes('/__tests__/')) return null;
  const target = /^subgraphs\/([^/]+)\/(.+)$/.exec(to);
  if (!target) return null;
  const [, subgraph, module] = target;
  if (from.startsWith(`subgraphs/${subgraph}/`)) return null;
  if (from.startsWith('kit/')) return 'kit/ imports no subgraph';
  if (module === 'contract.ts') return null;
  const root = COMPOSITION_ROOTS.some(folder => from.startsWith(folder));
  if (root && (module === 'runtime.ts' || module === 'main.ts')) return null;
  if (root) return `a composition root imports only subgraphs/${subgraph}/contract.ts, runtime.ts or main.ts`;
  const schemaTool = SCHEMA_TOOLS.some(folder => from.startsWith(folder));
  if (schemaTool && module === 'schema.ts') return null;
  if (schemaTool) return `schema tooling imports only subgraphs/${subgraph}/contract.ts or schema.ts`;
  return `only subgraphs/${subgraph}/contract.ts may be imported from outside the subgraph`;
}

const describeEdge = ({ from, to }: Pick<ImportEdge, 'from' | 'to'>) => `${from} → ${to}`;

describe('the import graph of kit/, subgraphs/, gateway/, rest-adapter/, embedded/, cli/, bench/ and scripts/', () => {
  it('is read from the sources (multi-line and type-only imports included)', () => {
    expect(graph.size).toBeGreaterThan(200);
    // A type-only import and a multi-line one, so a parser that missed either would be caught here.
    expect(graph.get('subgraphs/billing/context.ts')).toContainEqual(
      expect.objectContaining({ to: 'subgraphs/billing/services.ts' }),
    );
    expect(graph.get('rest-adapter/v1/routes/subscriptions.routes.ts')).toContainEqual(
      expect.objectContaining({ to: 'subgraphs/billing/contract.ts' }),
    );
    // bench/ and scripts/ are read too.
    expect(graph.get('bench/baseline-server.ts')).toContainEqual(
      expect.objectContaining({ to: 'subgraphs/billing/contract.ts' }),
    );
    expect(graph.get('scripts/schema.ts')).toContainEqual(
      expect.objectContaining({ to: 'subgraphs/billing/schema.ts' }),
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

describe('subgraph boundaries: outside a subgraph, only its contract.ts is imported', () => {
  it('tells the allowed imports from the forbidden ones', () => {
    const verdict = (from: string, to: string) => boundaryViolation({ from, to }) === null;
    expect(verdict('rest-adapter/v1/routes/products.routes.ts', 'subgraphs/billing/contract.ts')).toBe(true);
    expect(verdict('rest-adapter/v1/routes/products.routes.ts', 'subgraphs/billing/products/product.wire.ts')).toBe(
      false,
    );
    expect(verdict('gateway/gateway.ts', 'subgraphs/identity/runtime.ts')).toBe(false);
    expect(verdict('subgraphs/billing/x.ts', 'subgraphs/identity/users/user.entity.ts')).toBe(false);
    expect(verdict('subgraphs/billing/x.ts', 'subgraphs/identity/contract.ts')).toBe(true);
    expect(verdict('subgraphs/billing/x/y.ts', 'subgraphs/billing/products/product.entity.ts')).toBe(true);
    expect(verdict('kit/config.ts', 'subgraphs/billing/contract.ts')).toBe(false);
    expect(verdict('embedded/environment.ts', 'subgraphs/billing/runtime.ts')).toBe(true);
    expect(verdict('cli/session.ts', 'subgraphs/identity/admin.ts')).toBe(false);
    expect(verdict('subgraphs/billing/__tests__/a.test.ts', 'subgraphs/identity/orm.ts')).toBe(true);
    expect(verdict('bench/webhooks.ts', 'subgraphs/webhooks/runtime.ts')).toBe(true);
    expect(verdict('bench/baseline-server.ts', 'subgraphs/billing/contract.ts')).toBe(true);
    expect(verdict('bench/baseline-server.ts', 'subgraphs/billing/orders/order.read.ts')).toBe(false);
    expect(verdict('bench/baseline-server.ts', 'subgraphs/billing/schema.ts')).toBe(false);
    expect(verdict('scripts/schema.ts', 'subgraphs/billing/schema.ts')).toBe(true);
    expect(verdict('scripts/schema.ts', 'subgraphs/billing/runtime.ts')).toBe(false);
    expect(verdict('scripts/schema.ts', 'subgraphs/billing/resolvers.ts')).toBe(false);
    expect(verdict('embedded/environment.ts', 'subgraphs/billing/schema.ts')).toBe(false);
  });

  it('holds for every import (apart from the temporary allow-list)', () => {
    const violations = edges
      .filter(edge => boundaryViolation(edge) !== null && !TEMPORARY_ALLOWED.includes(describeEdge(edge)))
      .map(edge => `${edge.from}:${edge.line} imports '${edge.specifier}': ${boundaryViolation(edge)}`);
    expect(violations).toEqual([]);
  });

  it('has no stale entry in the temporary allow-list', () => {
    const present = new Set(edges.filter(edge => boundaryViolation(edge) !== null).map(describeEdge));
    expect(TEMPORARY_ALLOWED.filter(entry => !present.has(entry))).toEqual([]);
  });
});
