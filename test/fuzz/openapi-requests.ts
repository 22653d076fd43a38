import fc from 'fast-check';
import { boundaryValue, hostileValue, type JsonSchema, type SchemaContext, validValue } from './schema-arbitraries.js';
import { bodyArbitrary } from './openapi-bodies.js';
import { encode } from './query-text.js';

/**
 * Requests generated from an OpenAPI 3.1 document: one arbitrary per operation, built from its
 * parameters, request body and security, with raw encodings (bad percent escapes, NUL bytes, non-UTF-8,
 * duplicated keys, wrong content types) a JSON client library would never produce.
 */
export type OpenApiDocument = { paths: Record<string, Record<string, any>>; components?: Record<string, any> };

export interface Operation {
  operationId: string;
  method: string;
  path: string;
  parameters: { name: string; in: string; required?: boolean; style?: string; schema?: JsonSchema }[];
  /** Content type → schema of the request body, when the operation takes one. */
  bodies: Record<string, JsonSchema>;
  /** Scopes of the security requirements; `anonymous` when one requirement is empty. */
  scopes: string[];
  anonymous: boolean;
  responses: Record<string, any>;
}

/**
 * Whose credential a request carries: the caller's (an organization token, a member's personal token,
 * a customer session), none, a forged one, or another organization's (its token, a member's personal
 * token, a customer's session, a member's web session cookie) or a session cookie that does not decode;
 * or the caller's own token with a `Polar-Organization` header naming its own organization (a member's
 * personal token) or another's (a member's personal token, an organization token), which must open
 * nothing (docs/principals.md#polar-organization).
 */
export type TokenKind =
  | 'organization'
  | 'user'
  | 'customer'
  | 'none'
  | 'invalid'
  | 'foreign-organization'
  | 'foreign-user'
  | 'foreign-customer'
  | 'foreign-session'
  | 'broken-session'
  | 'user-own-header'
  | 'user-foreign-header'
  | 'organization-foreign-header';

export interface RequestCase {
  operationId: string;
  method: string;
  /** Path with its parameters, already percent-encoded (or deliberately mis-encoded). */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
  token: TokenKind;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  const context = refResolver(doc);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(context) as Operation['parameters'];
      const bodies: Record<string, JsonSchema> = {};
      const content = op.requestBody ? context(op.requestBody).content : undefined;
      for (const [type, media] of Object.entries<any>(content ?? {})) bodies[type] = media.schema ?? {};
      const security: Record<string, string[]>[] = op.security ?? (doc as any).security ?? [];
      out.push({
        operationId: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        bodies,
        scopes: security.flatMap(s => Object.values(s).flat()),
        anonymous: security.length === 0 || security.some(s => Object.keys(s).length === 0),
        responses: op.responses ?? {},
      });
    }
  }
  return out;
}

/** Follows local `$ref`s (`#/components/...`). */
export function refResolver(doc: OpenApiDocument): (schema: JsonSchema) => JsonSchema {
  return function resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops += 1) {
      const target = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: any, key: string) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      const { $ref: _ref, ...siblings } = current;
      current = { ...(target ?? {}), ...siblings };
    }
    return current;
  };
}

/** Query values sent verbatim: numbers nothing holds, bad escapes, NUL, non-UTF-8, long strings. */
const RAW_QUERY_VALUES = [
  '1e10',
  '10000000000',
  '99999999999999999999999',
  '2147483648',
  '-1',
  '0',
  '-0',
  '1.5',
  '0x10',
  '+1',
  '1_000',
  'abc',
  '',
  'NaN',
  'Infinity',
  '-Infinity',
  '%zz',
  '%',
  '%00',
  'a%00b',
  '%FF%FE',
  '%C0%AF',
  '%ED%A0%80',
  '%E2%98%83',
  '[]',
  '{}',
  'null',
  'true',
  'a'.repeat(4_000),
];
/**
 * Characters no signature, id or enum holds, for the parameters of signed links (`signature`,
 * `expires`) and every other string: NUL and other C0 controls, DEL, line breaks, C1 and Unicode line
 * separators, an ANSI escape.
 */
const CONTROL_QUERY_VALUES = [
  '%00',
  'a%00b',
  'AAAA%00',
  '%01',
  '%1F',
  'a%7Fb',
  '%0A',
  '%0D%0A',
  '%09',
  '%20',
  '+',
  '%C2%85',
  '%E2%80%A8',
  '%1B%5B31m',
];
/** Extra query pairs with keys no operation declares. */
const RAW_QUERY_EXTRAS = [
  '%zz=1',
  '%00=1',
  '=1',
  '&&',
  'page[]=2',
  'limit[x]=1',
  'sorting[0]=x',
  `${'k'.repeat(1_000)}=1`,
];
/** Path segments that are not ids, sent verbatim. */
const RAW_PATH_SEGMENTS = [
  'abc',
  '0',
  '-1',
  '1e10',
  '%zz',
  '%',
  '%00',
  '%FF%FE',
  '%2F',
  '..',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  '3F2504E0-4F89-41D3-9A0C-0305E82C3301',
  '3f2504e04f8941d39a0c0305e82c3301',
  'a'.repeat(3_000),
];

export interface RequestContext extends SchemaContext {
  /** Path parameter values worth trying for this operation: own ids, other tenants' ids. */
  pathValues(operation: Operation, parameter: string): fc.Arbitrary<string>;
}

export function requestArbitrary(context: RequestContext, operation: Operation): fc.Arbitrary<RequestCase> {
  const pathParams = operation.parameters.filter(p => p.in === 'path');
  const queryParams = operation.parameters.filter(p => p.in === 'query');

  const pathArb = fc
    .tuple(
      ...pathParams.map(p =>
        fc.oneof(
          { weight: 8, arbitrary: context.pathValues(operation, p.name).map(v => encodeURIComponent(v)) },
          { weight: 2, arbitrary: fc.constantFrom(...RAW_PATH_SEGMENTS) },
          { weight: 1, arbitrary: hostileValue.map(encode) },
        ),
      ),
    )
    .map(values => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]), operation.path));

  const queryArb = fc
    .tuple(
      fc.tuple(...queryParams.map(p => fc.option(queryPairs(context, p), { freq: p.required ? 20 : 2 }))),
      fc.option(fc.constantFrom(...RAW_QUERY_EXTRAS), { freq: 6 }),
    )
    .map(([pairs, extra]) => [...pairs.filter(p => p !== null).flat(), ...(extra ? [extra] : [])].join('&'));

  return fc
    .record({
      path: pathArb,
      query: queryArb,
      body: bodyArbitrary(context, operation.bodies),
      token: tokenArbitrary(operation),
    })
    .map(({ path, query, body, token }) => ({
      operationId: operation.operationId,
      method: operation.method,
      path,
      query,
      headers: body?.headers ?? {},
      body: body?.bytes,
      token,
    }));
}

/** The `key=value` pairs of one query parameter, already encoded. */
function queryPairs(context: RequestContext, parameter: Operation['parameters'][number]): fc.Arbitrary<string[]> {
  const schema = context.resolve(parameter.schema ?? {});
  const name = encodeURIComponent(parameter.name);
  const item = arrayItem(context, schema);
  const one = (value: fc.Arbitrary<string>) => value.map(v => [`${name}=${v}`]);
  // The credential of a signed link: mostly characters no signature has.
  const signed = parameter.name === 'signature' || parameter.name === 'expires';
  const options: fc.WeightedArbitrary<string[]>[] = [
    { weight: 3, arbitrary: one(validValue(context, item ?? schema).map(encode)) },
    { weight: 2, arbitrary: one(boundaryValue(context, item ?? schema).map(encode)) },
    { weight: 2, arbitrary: one(fc.constantFrom(...RAW_QUERY_VALUES)) },
    { weight: signed ? 12 : 1, arbitrary: one(fc.constantFrom(...CONTROL_QUERY_VALUES)) },
    // A plain key and a bracketed one of the same name, in either order (`metadata=x&metadata[k]=1`).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...RAW_QUERY_VALUES.slice(0, 12)), fc.boolean())
        .map(([v, plainFirst]) => (plainFirst ? [`${name}=${v}`, `${name}[k]=1`] : [`${name}[k]=1`, `${name}=${v}`])),
    },
    // The same key twice: a scalar takes one of them, an array both.
    {
      weight: 1,
      arbitrary: fc
        .tuple(validValue(context, item ?? schema), fc.constantFrom(...RAW_QUERY_VALUES))
        .map(([a, b]) => [`${name}=${encode(a)}`, `${name}=${b}`]),
    },
    // An array or a map where a scalar is expected.
    { weight: 1, arbitrary: fc.constantFrom([`${name}[]=1`], [`${name}[x]=1`, `${name}[y]=2`], [`${name}[=1`]) },
  ];
  if (item)
    options.push({
      weight: 2,
      arbitrary: fc
        .array(validValue(context, item), { minLength: 1, maxLength: 4 })
        .map(vs => vs.map(v => `${name}=${encode(v)}`)),
    });
  if (parameter.style === 'deepObject')
    options.push(
      // A plain value before or after the map's keys, and keys that name Object.prototype's members.
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...RAW_QUERY_VALUES.slice(0, 12), 'x'),
            fc.constantFrom('k', 'constructor', '__proto__', 'toString', 'hasOwnProperty', ''),
            fc.boolean(),
          )
          .map(([v, key, plainFirst]) => {
            const deep = `${name}[${key}]=1`;
            return plainFirst ? [`${name}=${v}`, deep] : [deep, `${name}=${v}`];
          }),
      },
      {
        weight: 1,
        arbitrary: fc
          .subarray(['constructor', '__proto__', 'toString', 'valueOf', 'k'], { minLength: 1 })
          .map(keys => keys.map(key => `${name}[${key}]=1`)),
      },
      {
        weight: 3,
        arbitrary: fc
          .array(
            fc.tuple(
              fc.string({ maxLength: 8 }),
              fc.oneof(fc.string({ maxLength: 8 }).map(encode), fc.constantFrom(...RAW_QUERY_VALUES)),
            ),
            {
              minLength: 1,
              maxLength: 3,
            },
          )
          .map(entries => entries.map(([k, v]) => `${name}[${encodeURIComponent(k)}]=${v}`)),
      },
    );
  return fc.oneof(...options);
}

/** The item schema when the parameter may be an array (`X[]` or `X | X[]`). */
function arrayItem(context: SchemaContext, schema: JsonSchema): JsonSchema | undefined {
  if (schema.type === 'array') return schema.items ?? {};
  for (const alt of schema.anyOf ?? schema.oneOf ?? []) {
    const found = arrayItem(context, context.resolve(alt));
    if (found) return found;
  }
  return undefined;
}

/**
 * Mostly the credential the operation's security asks for; now and then none or a forged one. An
 * operation anyone may call (a capability route: a checkout by its client secret, a portal by its slug)
 * also gets every kind of another organization's credential, which must not make it fail where an
 * anonymous call succeeds.
 */
function tokenArbitrary(operation: Operation): fc.Arbitrary<TokenKind> {
  const portal = operation.scopes.some(s => s.startsWith('customer_portal'));
  // Only the API reads the header (the probes and OAuth discovery do not declare it, nor act on it).
  const readsHeader = operation.parameters.some(p => p.in === 'header' && /^polar-organization$/i.test(p.name));
  const withHeader: fc.WeightedArbitrary<TokenKind>[] = readsHeader
    ? [
        { weight: 1, arbitrary: fc.constant('user-own-header') },
        {
          weight: 1,
          arbitrary: fc.constantFrom<TokenKind>('user-foreign-header', 'organization-foreign-header'),
        },
      ]
    : [];
  const usual: fc.WeightedArbitrary<TokenKind>[] = portal
    ? [{ weight: 10, arbitrary: fc.constant('customer') }]
    : [
        { weight: 7, arbitrary: fc.constant('organization') },
        { weight: 3, arbitrary: fc.constant('user') },
        ...withHeader,
      ];
  const foreign: fc.WeightedArbitrary<TokenKind>[] = operation.anonymous
    ? [
        {
          weight: 8,
          arbitrary: fc.constantFrom<TokenKind>(
            'foreign-organization',
            'foreign-user',
            'foreign-customer',
            'foreign-session',
            'broken-session',
          ),
        },
      ]
    : [];
  return fc.oneof(
    ...usual,
    ...foreign,
    { weight: operation.anonymous ? 4 : 1, arbitrary: fc.constant<TokenKind>('none') },
    { weight: 1, arbitrary: fc.constant<TokenKind>('invalid') },
  );
}
