import fc from 'fast-check';

/**
 * Requests for `POST /graphql` generated from the served schema (introspection): for each root field,
 * one `String` or `ID` in its arguments (directly, in a list, or in an input object) gets a value a
 * careless or hostile client sends where the resolver expects an enum-like word or an id: another
 * enum's word, a sort key, an empty string, separators and quotes that break a SQL array literal,
 * control characters, a long string, an id of the wrong form. Every other required argument gets a
 * plain valid value. The property: no such value makes a resolver fail (no 5xx, no masked
 * `INTERNAL_SERVER_ERROR`); the subgraphs answer 4xx-coded GraphQL errors instead.
 */

/** What introspection says about one type reference (`[ID!]!` and so on). */
export interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

interface InputValue {
  name: string;
  type: TypeRef;
}

interface IntrospectedType {
  kind: string;
  name: string;
  fields: { name: string; args: InputValue[]; type: TypeRef }[] | null;
  inputFields: InputValue[] | null;
  enumValues: { name: string }[] | null;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';

/** The introspection query the generator reads. */
export const SCHEMA_QUERY = `{ __schema { types { kind name
  fields { name type { ${TYPE_REF} } args { name type { ${TYPE_REF} } } }
  inputFields { name type { ${TYPE_REF} } }
  enumValues { name } } } }`;

/** Words a resolver taking a string "enum" must refuse or ignore, never fail on. */
const HOSTILE_WORDS = [
  'x',
  '',
  ' ',
  '-',
  '9xx',
  '2XX',
  'NaN',
  '%',
  '*',
  'a,b',
  '{a}',
  '"',
  "'",
  '\\',
  "' OR 1=1 --",
  'created_at',
  '-created_at',
  '--created_at',
  'null',
  '\u0001',
  'a\u007fb',
  '\n',
  '\u2028',
  'a'.repeat(300),
  '00000000-0000-0000-0000-00000000000g',
  '3f2504e04f8941d39a0c0305e82c3301',
  '{3f2504e0-4f89-41d3-9a0c-0305e82c3301}',
];

export interface GraphQLCase {
  field: string;
  operation: 'query' | 'mutation';
  /** The argument path to the generated value (`input.products.0`). */
  target: string;
  value: unknown;
  document: string;
  token: 'organization' | 'customer';
}

export interface RootField {
  operation: 'query' | 'mutation';
  name: string;
  args: InputValue[];
  returnsObject: boolean;
}

export class GraphQLRequests {
  private readonly types = new Map<string, IntrospectedType>();
  /** Every enum word of the schema, lower-cased too: the words a string "enum" is most often sent. */
  private readonly enumWords: string[];

  constructor(
    schema: { types: IntrospectedType[] },
    /** Ids worth sending: the caller's, another tenant's. */
    private readonly ids: readonly string[],
  ) {
    for (const type of schema.types) this.types.set(type.name, type);
    const words = schema.types.flatMap(t => (t.enumValues ?? []).map(v => v.name));
    this.enumWords = [...new Set([...words, ...words.map(w => w.toLowerCase())])];
  }

  /**
   * Root fields with a `String` or `ID` somewhere in their arguments; mutations that delete or revoke
   * are left out (a generated call with one of the caller's ids would end the world the rest runs on).
   */
  rootFields(): RootField[] {
    const out: RootField[] = [];
    for (const operation of ['query', 'mutation'] as const) {
      const root = this.types.get(operation === 'query' ? 'Query' : 'Mutation');
      for (const field of root?.fields ?? []) {
        if (field.name.startsWith('_') || /^(delete|revoke)/.test(field.name)) continue;
        if (!field.args.some(a => this.targets(a.type, a.name, 0).length)) continue;
        if (field.args.some(a => a.type.kind === 'NON_NULL' && this.minimal(a.type, '', 0) === undefined)) continue;
        out.push({
          operation,
          name: field.name,
          args: field.args,
          returnsObject: ['OBJECT', 'INTERFACE', 'UNION'].includes(named(field.type).kind),
        });
      }
    }
    return out;
  }

  /** Requests for one root field, each with one generated value in one of its string or id positions. */
  arbitrary(field: RootField): fc.Arbitrary<GraphQLCase> {
    const targets = field.args.flatMap(a => this.targets(a.type, a.name, 0).map(path => ({ arg: a, path })));
    const portal = /^customerPortal|CustomerPortal/.test(field.name);
    return fc
      .record({
        target: fc.constantFrom(...targets),
        value: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_WORDS) },
          { weight: 3, arbitrary: fc.constantFrom(...this.enumWords) },
          { weight: 2, arbitrary: fc.constantFrom(...this.ids) },
        ),
        fill: fc.constantFrom(...this.ids),
        token: portal
          ? fc.constant<'customer'>('customer')
          : fc.constantFrom<'organization' | 'customer'>('organization', 'organization', 'organization', 'customer'),
      })
      .map(({ target, value, fill, token }) => {
        const args: string[] = [];
        for (const arg of field.args) {
          if (arg === target.arg)
            args.push(`${arg.name}: ${this.valueAt(arg.type, target.path.slice(1), value, fill)}`);
          else if (arg.type.kind === 'NON_NULL') args.push(`${arg.name}: ${this.minimal(arg.type, fill, 0)}`);
        }
        const selection = field.returnsObject ? ' { __typename }' : '';
        return {
          field: field.name,
          operation: field.operation,
          target: target.path.join('.'),
          value,
          document: `${field.operation} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`,
          token,
        };
      });
  }

  /** Paths (argument name, input field names, `0` for a list item) to every `String`/`ID` leaf. */
  private targets(type: TypeRef, name: string, depth: number): string[][] {
    if (type.kind === 'NON_NULL') return this.targets(type.ofType!, name, depth);
    if (type.kind === 'LIST')
      return this.targets(type.ofType!, name, depth).map(([head, ...rest]) => [head, '0', ...rest]);
    if (type.kind === 'SCALAR') return type.name === 'String' || type.name === 'ID' ? [[name]] : [];
    if (type.kind !== 'INPUT_OBJECT' || depth >= 3) return [];
    const input = this.types.get(type.name!);
    if (!input?.inputFields) return [];
    // An input object whose required fields cannot be filled is skipped.
    if (input.inputFields.some(f => f.type.kind === 'NON_NULL' && this.minimal(f.type, '', depth + 1) === undefined))
      return [];
    return input.inputFields.flatMap(f => this.targets(f.type, f.name, depth + 1).map(path => [name, ...path]));
  }

  /** A literal of `type` with `value` at `path` (input field names, `0` for a list item). */
  private valueAt(type: TypeRef, path: string[], value: unknown, fill: string): string {
    if (type.kind === 'NON_NULL') return this.valueAt(type.ofType!, path, value, fill);
    if (type.kind === 'LIST') return `[${this.valueAt(type.ofType!, path.slice(1), value, fill)}]`;
    if (type.kind === 'SCALAR') return JSON.stringify(value);
    const input = this.types.get(type.name!)!;
    const [head, ...rest] = path;
    const fields: string[] = [];
    for (const f of input.inputFields ?? []) {
      if (f.name === head) fields.push(`${f.name}: ${this.valueAt(f.type, rest, value, fill)}`);
      else if (f.type.kind === 'NON_NULL') fields.push(`${f.name}: ${this.minimal(f.type, fill, 1)}`);
    }
    return `{ ${fields.join(', ')} }`;
  }

  /** A plain valid literal of `type`, or undefined when there is none to make (an unknown scalar). */
  private minimal(type: TypeRef, fill: string, depth: number): string | undefined {
    if (type.kind === 'NON_NULL') return this.minimal(type.ofType!, fill, depth);
    if (type.kind === 'LIST') {
      const item = this.minimal(type.ofType!, fill, depth);
      return item === undefined ? undefined : `[${item}]`;
    }
    if (type.kind === 'ENUM') return this.types.get(type.name!)?.enumValues?.[0]?.name;
    if (type.kind === 'INPUT_OBJECT') {
      if (depth > 3) return undefined;
      const fields: string[] = [];
      for (const f of this.types.get(type.name!)?.inputFields ?? []) {
        if (f.type.kind !== 'NON_NULL') continue;
        const v = this.minimal(f.type, fill, depth + 1);
        if (v === undefined) return undefined;
        fields.push(`${f.name}: ${v}`);
      }
      return `{ ${fields.join(', ')} }`;
    }
    switch (type.name) {
      case 'ID':
        return JSON.stringify(fill);
      case 'String':
        return '"x"';
      case 'Int':
      case 'Float':
        return '1';
      case 'Boolean':
        return 'true';
      case 'DateTimeISO':
        return '"2026-01-01T00:00:00Z"';
      case 'JSONObject':
      case 'JSON':
        return '{}';
      default:
        return undefined;
    }
  }
}

function named(type: TypeRef): TypeRef {
  return type.ofType ? named(type.ofType) : type;
}
