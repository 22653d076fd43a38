import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One static `import … from` / `export … from` of a project file, resolved to the file it names. */
export interface ImportEdge {
  from: string;
  to: string;
  /** The specifier as written (`'../context.js'`). */
  specifier: string;
  line: number;
}

/**
 * The static import graph of the `.ts` files under `folders` (paths relative to `root`, with `/`).
 * Read with the TypeScript parser, so multi-line and `import type` imports count (a type-only cycle
 * still ties the files together for a reader and for the next change); `import()` expressions do not.
 * Only relative specifiers that name a project `.ts` file become edges.
 */
export function importGraph(root: string, folders: string[]): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>();
  for (const file of folders.flatMap(folder => tsFiles(root, folder))) {
    const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest);
    const edges: ImportEdge[] = [];
    for (const statement of source.statements) {
      const specifier = moduleSpecifierOf(statement);
      if (!specifier?.startsWith('.')) continue;
      const to = resolveSpecifier(root, file, specifier);
      if (!to) continue;
      const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
      edges.push({ from: file, to, specifier, line });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Every cycle's strongly connected set of files (Tarjan), each with one concrete loop through it. */
export function importCycles(graph: Map<string, ImportEdge[]>): { files: string[]; loop: string[] }[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];

  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const { to } of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = graph.get(file)?.some(edge => edge.to === file);
    if (component.length > 1 || selfImport) components.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);

  return components.map(files => ({ files, loop: loopWithin(graph, new Set(files), files[0]) }));
}

/** A shortest path from `start` back to itself inside one cycle's files (breadth first). */
function loopWithin(graph: Map<string, ImportEdge[]>, members: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const { to } of graph.get(file) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const loop = [start];
        for (let at: string | undefined = file; at !== undefined && at !== start; at = previous.get(at))
          loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(to)) {
        previous.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** Two top-level folders of a tree that import each other, with the import statements each way. */
export interface TwoWayFolders {
  /** The two folders, in name order (`(root)` for the files at the tree's root, when they count). */
  folders: [string, string];
  /** Import statements from `folders[0]` into `folders[1]`, and back. */
  statements: [number, number];
  /** The smaller of the two: the imports that run back up against the pair's main direction. */
  runningBackUp: number;
}

/**
 * "Imports running back up" between the top-level folders of `tree` (a folder path ending in `/`): for
 * every pair of folders A, B that import each other, the smaller of (import statements A → B, B → A),
 * summed. Zero means the folders form a layering (each pair is one-way); every unit above it is one
 * import a reader has to follow against the grain. Test files (`__tests__/`, `*.test.ts`) do not count,
 * nor imports leaving the tree. The files at the tree's root form one group, `(root)`, or are left out
 * (`rootFiles: 'ignored'`) where they only compose the folders.
 */
export function importsRunningBackUp(
  graph: Map<string, ImportEdge[]>,
  tree: string,
  { rootFiles }: { rootFiles: 'grouped' | 'ignored' },
): { total: number; pairs: TwoWayFolders[] } {
  const groupOf = (file: string): string | null => {
    const rest = file.slice(tree.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) return rest.slice(0, slash);
    return rootFiles === 'grouped' ? '(root)' : null;
  };
  const isTest = (file: string) => file.includes('/__tests__/') || file.endsWith('.test.ts');
  const statements = new Map<string, number>();
  const key = (from: string, to: string) => `${from}\n${to}`;
  for (const edges of graph.values()) {
    for (const { from, to } of edges) {
      if (!from.startsWith(tree) || !to.startsWith(tree) || isTest(from) || isTest(to)) continue;
      const [a, b] = [groupOf(from), groupOf(to)];
      if (a === null || b === null || a === b) continue;
      statements.set(key(a, b), (statements.get(key(a, b)) ?? 0) + 1);
    }
  }
  const pairs: TwoWayFolders[] = [];
  for (const [forward, count] of statements) {
    const [a, b] = forward.split('\n');
    const back = statements.get(key(b, a));
    if (a < b && back !== undefined)
      pairs.push({ folders: [a, b], statements: [count, back], runningBackUp: Math.min(count, back) });
  }
  pairs.sort((x, y) => y.runningBackUp - x.runningBackUp || x.folders.join().localeCompare(y.folders.join()));
  return { total: pairs.reduce((sum, pair) => sum + pair.runningBackUp, 0), pairs };
}

function moduleSpecifierOf(statement: ts.Statement): string | undefined {
  if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) {
    const specifier = statement.moduleSpecifier;
    return specifier && ts.isStringLiteral(specifier) ? specifier.text : undefined;
  }
  if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
    const expression = statement.moduleReference.expression;
    return ts.isStringLiteral(expression) ? expression.text : undefined;
  }
  return undefined;
}

/** `./x.js` → `dir/x.ts` (the NodeNext spelling of a TypeScript import), or `./x/index.ts`. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find(candidate => candidate.endsWith('.ts') && existsSync(path.join(root, candidate)));
}

function tsFiles(root: string, folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...tsFiles(root, relative));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      files.push(relative);
    }
  }
  return files;
}
