import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DefinitionNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  visit,
} from 'graphql';

export const OPERATIONS_DIR = fileURLToPath(new URL('../../schema/operations/', import.meta.url));

/**
 * The named GraphQL operations the REST routes run, read once from schema/operations/*.graphql.
 * Each is stored as one self-contained source string (operation plus the fragments it uses), so the
 * gateway's document and query-plan caches see the same string every time. A folder is read and
 * parsed once per process: both environments (and every test stack of a file) share its strings.
 */
export class OperationDocuments {
  private readonly sources: ReadonlyMap<string, string>;

  constructor(directory = OPERATIONS_DIR) {
    let sources = readFolders.get(directory);
    if (!sources) readFolders.set(directory, (sources = readOperations(directory)));
    this.sources = sources;
  }

  source(name: string): string {
    const source = this.sources.get(name);
    if (!source) throw new Error(`Unknown GraphQL operation "${name}"`);
    return source;
  }

  names(): string[] {
    return [...this.sources.keys()];
  }
}

const readFolders = new Map<string, ReadonlyMap<string, string>>();

function readOperations(directory: string): ReadonlyMap<string, string> {
  const definitions: DefinitionNode[] = [];
  for (const file of readdirSync(directory)
    .filter(f => f.endsWith('.graphql'))
    .sort()) {
    definitions.push(...parse(readFileSync(path.join(directory, file), 'utf8')).definitions);
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const sources = new Map<string, string>();
  for (const d of definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION || !d.name) continue;
    const used = collectFragments(d, fragments);
    sources.set(d.name.value, [d, ...used].map(n => print(n)).join('\n\n'));
  }
  return sources;
}

function collectFragments(
  root: OperationDefinitionNode | FragmentDefinitionNode,
  all: Map<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): FragmentDefinitionNode[] {
  const out: FragmentDefinitionNode[] = [];
  visit(root, {
    FragmentSpread(node) {
      const name = node.name.value;
      if (seen.has(name)) return;
      seen.add(name);
      const fragment = all.get(name);
      if (!fragment) throw new Error(`Unknown fragment "${name}"`);
      out.push(fragment, ...collectFragments(fragment, all, seen));
    },
  });
  return out;
}
