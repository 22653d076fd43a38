import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
 * operation selects, with its nullability. `--write` writes the file; without it, the committed file is
 * compared with what this produces (`npm run schema:check`).
 */

const root = projectRoot();
const operationsDir = path.join(root, 'schema', 'operations');
const supergraphFile = path.join(root, 'schema', 'supergraph.graphql');
export const operationResultsFile = path.join(root, 'rest-adapter', 'v1', 'operation-results.generated.ts');

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
    if (isScalarType(named) || isEnumType(named)) return scalarType(named);
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

/** The generated file's text, as the committed file should read. */
export function producedOperationResults(): string {
  const schema = Supergraph.build(readFileSync(supergraphFile, 'utf8')).apiSchema().toGraphQLJSSchema();
  const definitions: DefinitionNode[] = [];
  for (const file of readdirSync(operationsDir)
    .filter(f => f.endsWith('.graphql'))
    .sort())
    definitions.push(...parse(readFileSync(path.join(operationsDir, file), 'utf8')).definitions);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operations = definitions.filter((d): d is OperationDefinitionNode & { name: { value: string } } =>
    Boolean(d.kind === Kind.OPERATION_DEFINITION && d.name),
  );
  const emitter = new Emitter(schema, fragments);
  const byName = <T extends { name: { value: string } }>(a: T, b: T) => (a.name.value < b.name.value ? -1 : 1);
  const out = [
    '// Generated by scripts/operation-results.ts from schema/operations/*.graphql and schema/supergraph.graphql.',
    '// Do not edit: change an operation or the schema, then run `npm run schema:write`.',
    '',
    "/** A JSON object scalar (metadata, properties): the merchant's keys as written. */",
    'export type JsonObject = Record<string, unknown>;',
    '',
  ];
  for (const fragment of [...fragments.values()].sort(byName))
    out.push(`export type ${fragment.name.value} = ${emitter.fragment(fragment)};`, '');
  for (const op of [...operations].sort(byName))
    out.push(`export type ${op.name.value}Result = ${emitter.operation(op)};`, '');
  out.push("/** The `data` of each named operation the routes run, by the operation's name. */");
  out.push('export interface OperationResults {');
  for (const op of [...operations].sort(byName)) out.push(`${INDENT}${op.name.value}: ${op.name.value}Result;`);
  out.push('}', '', 'export type OperationName = keyof OperationResults;', '');
  return out.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const produced = producedOperationResults();
  if (process.argv.includes('--write')) {
    writeFileSync(operationResultsFile, produced);
    process.stdout.write(`${path.relative(root, operationResultsFile)} written\n`);
  } else {
    let committed = '';
    try {
      committed = readFileSync(operationResultsFile, 'utf8');
    } catch {
      /* missing counts as stale */
    }
    if (committed !== produced) {
      process.stderr.write(
        `${path.relative(root, operationResultsFile)} differs from what schema/operations produce. Run \`npm run schema:write\` and commit.\n`,
      );
      process.exit(1);
    }
    process.stdout.write('operation results check passed\n');
  }
}
