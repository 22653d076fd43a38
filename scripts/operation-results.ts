import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Supergraph } from '@apollo/federation-internals';
import {
  type DefinitionNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
} from 'graphql';
import { projectRoot } from '../kit/paths.js';

/**
 * Writes the TypeScript type of `data` for every named operation in schema/operations/*.graphql, from
 * the client-facing schema of the committed supergraph: the REST routes shape these results into wire
 * bodies (`Route.result`), and with the types the compiler checks that they read only what the
 * operation selects, with its nullability. Per operations file, `<name>.generated.ts` in
 * `rest-adapter/v1/operation-results/` with its operations' results and, when it defines fragments,
 * `<name>.fragments.generated.ts` with those; `scalars.generated.ts` for the JSON scalar, and `index.generated.ts`, the map from operation name to
 * result type the route table reads. `--write` writes them (and deletes a generated file no operations
 * file produces any more); without it, each committed file is compared with what this produces, and a
 * leftover one counts as drift (`npm run schema:check`).
 */

const root = projectRoot();
const operationsDir = path.join(root, 'schema', 'operations');
const supergraphFile = path.join(root, 'schema', 'supergraph.graphql');
export const operationResultsDir = path.join(root, 'rest-adapter', 'v1', 'operation-results');
const GENERATED = '.generated.ts';

/** The custom scalars as they arrive in a JSON result. */
const SCALARS: Record<string, string> = {
  ID: 'string',
  String: 'string',
  Int: 'number',
  Float: 'number',
  Boolean: 'boolean',
  DateTimeISO: 'string',
  MinorUnits: 'number',
  Metadata: 'JsonObject',
  JSONObject: 'JsonObject',
  BenefitProperties: 'JsonObject',
  CustomFieldProperties: 'JsonObject',
  MetricValues: 'JsonObject',
};

const INDENT = '  ';

function scalarType(type: GraphQLNamedType): string {
  if (isEnumType(type))
    return type
      .getValues()
      .map(v => `'${v.value}'`)
      .join(' | ');
  const known = SCALARS[type.name];
  if (!known) throw new Error(`No TypeScript type for the scalar ${type.name}: add it to SCALARS`);
  return known;
}

class Emitter {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
  ) {}

  /** The named types (fragments, `JsonObject`) the types emitted since the last `take()` refer to. */
  private referenced = new Set<string>();

  take(): Set<string> {
    const referenced = this.referenced;
    this.referenced = new Set();
    return referenced;
  }

  /** The object type a selection set reads, as an intersection of its fragments and its own fields. */
  selection(parent: GraphQLObjectType, set: SelectionSetNode, depth: number): string {
    const spreads: string[] = [];
    const fields: string[] = [];
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = this.fragments.get(selection.name.value);
        if (!fragment) throw new Error(`Unknown fragment ${selection.name.value}`);
        if (fragment.typeCondition.name.value !== parent.name)
          throw new Error(`Fragment ${fragment.name.value} spread on ${parent.name}: only same-type spreads are typed`);
        spreads.push(fragment.name.value);
        this.referenced.add(fragment.name.value);
        continue;
      }
      if (selection.kind !== Kind.FIELD) throw new Error(`Inline fragments are not typed (in ${parent.name})`);
      const name = selection.name.value;
      const key = selection.alias?.value ?? name;
      if (name === '__typename') {
        fields.push(`${INDENT.repeat(depth + 1)}${key}: '${parent.name}';`);
        continue;
      }
      const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[name];
      if (!field) throw new Error(`${parent.name} has no field ${name}`);
      fields.push(`${INDENT.repeat(depth + 1)}${key}: ${this.output(field.type, selection.selectionSet, depth + 1)};`);
    }
    const own = fields.length ? `{\n${fields.join('\n')}\n${INDENT.repeat(depth)}}` : '';
    return [...spreads, ...(own ? [own] : [])].join(' & ') || 'Record<string, never>';
  }

  output(type: GraphQLOutputType, set: SelectionSetNode | undefined, depth: number): string {
    if (!isNonNullType(type)) return `${this.nonNull(type, set, depth)} | null`;
    return this.nonNull(type.ofType, set, depth);
  }

  private nonNull(type: GraphQLOutputType, set: SelectionSetNode | undefined, depth: number): string {
    if (isNonNullType(type)) return this.nonNull(type.ofType, set, depth);
    if (isListType(type)) {
      const item = this.output(type.ofType, set, depth);
      return /^[\w']+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    const named = getNamedType(type);
    if (isScalarType(named) || isEnumType(named)) {
      const scalar = scalarType(named);
      if (scalar === 'JsonObject') this.referenced.add(scalar);
      return scalar;
    }
    if (!isObjectType(named) || !set) throw new Error(`Cannot type a selection on ${named.name}`);
    return this.selection(named, set, depth);
  }

  operation(op: OperationDefinitionNode): string {
    const root = op.operation === 'mutation' ? this.schema.getMutationType() : this.schema.getQueryType();
    if (!root) throw new Error(`The schema has no ${op.operation} type`);
    return this.selection(root, op.selectionSet, 0);
  }

  fragment(fragment: FragmentDefinitionNode): string {
    const type = this.schema.getType(fragment.typeCondition.name.value);
    if (!isObjectType(type)) throw new Error(`Fragment ${fragment.name.value} is on a non-object type`);
    return this.selection(type, fragment.selectionSet, 0);
  }
}

const HEADER = (source: string) => [
  `// Generated by scripts/operation-results.ts from ${source} and schema/supergraph.graphql.`,
  '// Do not edit: change an operation or the schema, then run `npm run schema:write`.',
  '',
];

type Named<T> = T & { name: { value: string } };
const byName = <T extends { name: { value: string } }>(a: T, b: T) => (a.name.value < b.name.value ? -1 : 1);

/** One operations file, parsed: its base name (`license-keys`), fragments and named operations. */
interface OperationsFile {
  name: string;
  fragments: FragmentDefinitionNode[];
  operations: Named<OperationDefinitionNode>[];
}

function operationsFiles(): OperationsFile[] {
  return readdirSync(operationsDir)
    .filter(f => f.endsWith('.graphql'))
    .sort()
    .map(file => {
      const definitions: DefinitionNode[] = [
        ...parse(readFileSync(path.join(operationsDir, file), 'utf8')).definitions,
      ];
      return {
        name: file.replace(/\.graphql$/, ''),
        fragments: definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION),
        operations: definitions.filter((d): d is Named<OperationDefinitionNode> =>
          Boolean(d.kind === Kind.OPERATION_DEFINITION && d.name),
        ),
      };
    });
}

/** `customer-portal-orders` → `customerPortalOrders`, the index's namespace for that file's types. */
const namespaceOf = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * One generated module: the types in `body`, after the imports of the named types they refer to that
 * live in other modules (`home`: fragment → module; `JsonObject` is in `scalars`).
 */
function producedModule(
  module: string,
  source: string,
  body: string[],
  referenced: Set<string>,
  home: Map<string, string>,
) {
  const imports = new Map<string, string[]>();
  for (const name of [...referenced].sort()) {
    const from = name === 'JsonObject' ? 'scalars' : home.get(name);
    if (from === undefined) throw new Error(`Fragment ${name} is defined in no operations file`);
    if (from !== module) imports.set(from, [...(imports.get(from) ?? []), name]);
  }
  const importLines = [...imports.keys()]
    .sort()
    .map(from => `import type { ${imports.get(from)!.join(', ')} } from './${from}${GENERATED.replace(/ts$/, 'js')}';`);
  return [...HEADER(source), ...importLines, ...(importLines.length ? [''] : []), ...body].join('\n');
}

/**
 * One operations file's modules: `<name>.fragments` with the fragments it defines (when it defines any),
 * `<name>` with its operations' results. Fragments have a module of their own because operations of
 * one file spread fragments of another whose fragments spread the first one's (`benefits` ↔ `products`):
 * fragment modules import only fragment modules, and GraphQL allows no cycle of spreads, so the files
 * form no import cycle.
 */
function producedFiles(file: OperationsFile, emitter: Emitter, home: Map<string, string>): Map<string, string> {
  const source = `schema/operations/${file.name}.graphql`;
  const out = new Map<string, string>();
  if (file.fragments.length) {
    const body = [...file.fragments]
      .sort(byName)
      .flatMap(fragment => [`export type ${fragment.name.value} = ${emitter.fragment(fragment)};`, '']);
    const module = fragmentsModule(file.name);
    out.set(`${module}${GENERATED}`, producedModule(module, source, body, emitter.take(), home));
  }
  const body = [...file.operations]
    .sort(byName)
    .flatMap(op => [`export type ${op.name.value}Result = ${emitter.operation(op)};`, '']);
  out.set(`${file.name}${GENERATED}`, producedModule(file.name, source, body, emitter.take(), home));
  return out;
}

const fragmentsModule = (name: string) => `${name}.fragments`;

function producedIndex(files: OperationsFile[]): string {
  const withOperations = files.filter(file => file.operations.length);
  const out = [...HEADER('schema/operations/*.graphql')];
  for (const file of withOperations)
    out.push(`import type * as ${namespaceOf(file.name)} from './${file.name}.generated.js';`);
  out.push('', "/** The `data` of each named operation the routes run, by the operation's name. */");
  out.push('export interface OperationResults {');
  const entries = withOperations.flatMap(file => file.operations.map(op => ({ op, file })));
  entries.sort((a, b) => byName(a.op, b.op));
  for (const { op, file } of entries)
    out.push(`${INDENT}${op.name.value}: ${namespaceOf(file.name)}.${op.name.value}Result;`);
  out.push('}', '', 'export type OperationName = keyof OperationResults;', '');
  return out.join('\n');
}

const SCALARS_FILE = [
  ...HEADER('the custom scalars of schema/supergraph.graphql'),
  "/** A JSON object scalar (metadata, properties): the merchant's keys as written. */",
  'export type JsonObject = Record<string, unknown>;',
  '',
].join('\n');

/** Every generated file's text as the committed one should read, by its name in `operationResultsDir`. */
export function producedOperationResults(): Map<string, string> {
  const schema = Supergraph.build(readFileSync(supergraphFile, 'utf8')).apiSchema().toGraphQLJSSchema();
  const files = operationsFiles();
  const fragments = new Map<string, FragmentDefinitionNode>();
  const home = new Map<string, string>();
  for (const file of files)
    for (const fragment of file.fragments) {
      if (fragments.has(fragment.name.value)) throw new Error(`Fragment ${fragment.name.value} is defined twice`);
      fragments.set(fragment.name.value, fragment);
      home.set(fragment.name.value, fragmentsModule(file.name));
    }
  const emitter = new Emitter(schema, fragments);
  const produced = new Map<string, string>([[`scalars${GENERATED}`, SCALARS_FILE]]);
  for (const file of files) for (const [name, text] of producedFiles(file, emitter, home)) produced.set(name, text);
  produced.set(`index${GENERATED}`, producedIndex(files));
  return produced;
}

/** The generated files in `operationResultsDir` now (none when it does not exist). */
function committedNames(): string[] {
  try {
    return readdirSync(operationResultsDir).filter(f => f.endsWith(GENERATED));
  } catch {
    return [];
  }
}

/** The files that differ from what the operations produce, missing ones, and leftovers no operations file produces. */
function drift(produced: Map<string, string>): string[] {
  const differs: string[] = [];
  for (const [name, text] of produced) {
    let committed: string | null = null;
    try {
      committed = readFileSync(path.join(operationResultsDir, name), 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (committed === null) differs.push(`${name} is missing`);
    else if (committed !== text) differs.push(`${name} differs`);
  }
  for (const name of committedNames())
    if (!produced.has(name)) differs.push(`${name} is left over (no operations file produces it)`);
  return differs;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const produced = producedOperationResults();
  const where = path.relative(root, operationResultsDir);
  if (process.argv.includes('--write')) {
    mkdirSync(operationResultsDir, { recursive: true });
    for (const name of committedNames()) if (!produced.has(name)) rmSync(path.join(operationResultsDir, name));
    for (const [name, text] of produced) writeFileSync(path.join(operationResultsDir, name), text);
    process.stdout.write(`${where}/: ${produced.size} files written\n`);
  } else {
    const differs = drift(produced);
    if (differs.length) {
      process.stderr.write(
        `${where}/ does not match what schema/operations produce:\n${differs.map(d => `  ${d}`).join('\n')}\n` +
          'Run `npm run schema:write` and commit.\n',
      );
      process.exit(1);
    }
    process.stdout.write('operation results check passed\n');
  }
}
