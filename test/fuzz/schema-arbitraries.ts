import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON schemas of an OpenAPI 3.1 document: values that satisfy a
 * schema, values on and just past its bounds, and values a careless or hostile client sends (wrong
 * types, numbers no 32- or 64-bit integer holds, NUL bytes, lone surrogates, very long strings, deep
 * nesting). Only the schema keywords the document uses are understood; anything else is "any JSON".
 */
export type JsonSchema = Record<string, any>;

/** Where `$ref`s point and which ids a `format: uuid` field may take. */
export interface SchemaContext {
  resolve(schema: JsonSchema): JsonSchema;
  /** Ids worth sending where a UUID is expected: the caller's own objects and another tenant's. */
  ids: fc.Arbitrary<string>;
}

const MAX_DEPTH = 4;
const INT32_MAX = 2 ** 31 - 1;

/** A value nested `depth` arrays deep: deep JSON must be refused, not recursed into. */
export function nested(depth: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? { a: value } : [value];
  return value;
}

/** JSON values no sane field expects. */
export const hostileValue: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -1,
  -0,
  0.5,
  1e10,
  -1e10,
  INT32_MAX + 1,
  2 ** 53 + 1,
  1e308,
  -1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\ufffe',
  '💥'.repeat(300),
  'x'.repeat(10_000),
  'NaN',
  'Infinity',
  '1e10',
  'null',
  "' OR 1=1 --",
  '%00',
  '00000000-0000-0000-0000-000000000000',
  [],
  [null],
  ['\u0000'],
  {},
  { '': 1 },
  { constructor: 'x', toString: 1 },
  nested(64),
);

/** Values that satisfy `schema` (as far as the keywords understood here go). */
export function validValue(context: SchemaContext, input: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const schema = context.resolve(input ?? {});
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length)
    return fc.oneof(
      ...alternatives.map((a: JsonSchema) =>
        validValue(context, { ...schema, anyOf: undefined, oneOf: undefined, ...a }, depth),
      ),
    );
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return validValue(context, mergeAll(context, schema.allOf), depth);
  if (Array.isArray(schema.type))
    return fc.oneof(...schema.type.map((type: string) => validValue(context, { ...schema, type }, depth)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return numberIn(schema);
    case 'string':
      return stringFor(context, schema);
    case 'array': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const min = schema.minItems ?? 0;
      return fc.array(validValue(context, schema.items ?? {}, depth + 1), {
        minLength: min,
        maxLength: Math.max(min, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    case 'object':
      return objectOf(context, schema, depth, (s, d) => validValue(context, s, d));
    default:
      if (schema.properties) return objectOf(context, schema, depth, (s, d) => validValue(context, s, d));
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values on a bound or one step past it, plus numbers beyond what the declared type holds. */
export function boundaryValue(context: SchemaContext, input: JsonSchema): fc.Arbitrary<unknown> {
  const schema = context.resolve(input ?? {});
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const out: unknown[] = [];
  if (types.includes('integer') || types.includes('number')) {
    for (const bound of [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum])
      if (typeof bound === 'number') out.push(bound - 1, bound, bound + 1);
    out.push(0, -1, INT32_MAX, INT32_MAX + 1, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER, 2 ** 63, 1.5);
  }
  if (types.includes('string')) {
    for (const bound of [schema.minLength, schema.maxLength])
      if (typeof bound === 'number') for (const n of [bound - 1, bound, bound + 1]) if (n >= 0) out.push('a'.repeat(n));
    out.push('', 'a'.repeat(256), 'a'.repeat(70_000));
  }
  if (types.includes('array'))
    out.push(
      [],
      Array.from({ length: 1_001 }, () => null),
    );
  if (types.includes('object')) out.push({}, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, 'v'])));
  return out.length ? fc.constantFrom(...out) : hostileValue;
}

/** Mostly valid, sometimes on a bound, sometimes hostile: one field of a generated request. */
export function fieldValue(context: SchemaContext, schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: validValue(context, schema, depth) },
    { weight: 2, arbitrary: boundaryValue(context, schema) },
    { weight: 2, arbitrary: hostileValue },
  );
}

/**
 * An object for a body schema: its properties mostly valid, each field sometimes mutated, sometimes a
 * required one missing or an unknown one added.
 */
export function mutatedObject(context: SchemaContext, input: JsonSchema): fc.Arbitrary<unknown> {
  const schema = context.resolve(input ?? {});
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives) && alternatives.length)
    return fc.oneof(
      ...alternatives.map((a: JsonSchema) =>
        mutatedObject(context, { ...schema, anyOf: undefined, oneOf: undefined, ...context.resolve(a) }),
      ),
    );
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return mutatedObject(context, mergeAll(context, schema.allOf));
  if (schema.type !== 'object' && !schema.properties) return fieldValue(context, schema);
  return fc
    .tuple(
      objectOf(context, schema, 0, (s, d) => fieldValue(context, s, d + 1)),
      fc.option(fc.constantFrom(...Object.keys(schema.properties ?? { x: 1 })), { freq: 4 }),
      fc.option(fc.tuple(fc.constantFrom('unknown_key', '__proto__', '', 'a'.repeat(300)), hostileValue), { freq: 4 }),
    )
    .map(([object, drop, extra]) => {
      const out = { ...(object as Record<string, unknown>) };
      if (drop !== null) delete out[drop];
      if (extra !== null) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true });
      return out;
    });
}

function objectOf(
  _context: SchemaContext,
  schema: JsonSchema,
  depth: number,
  value: (schema: JsonSchema, depth: number) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (!keys.length) {
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object' && depth < MAX_DEPTH)
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), value(extra, depth + 1), { maxKeys: 3 });
    return fc.constant({});
  }
  const required = (schema.required ?? []).filter((k: string) => keys.includes(k));
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const key of keys) record[key] = depth >= MAX_DEPTH ? fc.constant(null) : value(properties[key], depth + 1);
  return fc.record(record, { requiredKeys: required });
}

function numberIn(schema: JsonSchema): fc.Arbitrary<number> {
  const integer = schema.type === 'integer';
  let min =
    schema.minimum ??
    (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 0) : -1000);
  let max =
    schema.maximum ??
    (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 0) : 1000);
  min = Math.max(min, Number.MIN_SAFE_INTEGER);
  max = Math.min(Math.max(max, min), Number.MAX_SAFE_INTEGER);
  if (integer) return fc.bigInt({ min: BigInt(Math.ceil(min)), max: BigInt(Math.floor(max)) }).map(Number);
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function stringFor(context: SchemaContext, schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.oneof({ weight: 3, arbitrary: context.ids }, { weight: 1, arbitrary: fc.uuid({ version: 4 }) });
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map(d => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map(d => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
  }
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern JavaScript cannot compile: fall through to plain strings.
    }
  }
  const minLength = schema.minLength ?? 0;
  return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 24, 24)) });
}

function mergeAll(context: SchemaContext, parts: JsonSchema[]): JsonSchema {
  const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
  for (const part of parts.map(p => context.resolve(p))) {
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...(part.required ?? []));
    if (part.type && part.type !== 'object') return part;
  }
  return merged;
}
