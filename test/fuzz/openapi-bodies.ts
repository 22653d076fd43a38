import fc from 'fast-check';
import { type JsonSchema, mutatedObject, nested, type SchemaContext } from './schema-arbitraries.js';
import { encode, queryText } from './query-text.js';

/** Request bodies for the OpenAPI fuzz test (openapi-requests.ts). */

export interface GeneratedBody {
  headers: Record<string, string>;
  bytes?: Buffer;
}

const json = (value: unknown, contentType = 'application/json'): GeneratedBody => ({
  headers: { 'content-type': contentType },
  bytes: Buffer.from(JSON.stringify(value) ?? 'null'),
});
const raw = (text: string | Buffer, contentType?: string, extra: Record<string, string> = {}): GeneratedBody => ({
  headers: { ...(contentType ? { 'content-type': contentType } : {}), ...extra },
  bytes: Buffer.isBuffer(text) ? text : Buffer.from(text),
});

/** Whole bodies no schema allows: broken JSON, wrong encodings, too deep, too big, wrong media types. */
const HOSTILE_BODIES: GeneratedBody[] = [
  raw('not json', 'application/json'),
  raw('{"a":', 'application/json'),
  raw('', 'application/json'),
  raw('1e400', 'application/json'),
  raw('{"a":1,"a":2}', 'application/json'),
  raw('{"\\u0000":"\\u0000"}', 'application/json'),
  raw('"\\ud800"', 'application/json'),
  raw(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), 'application/json'),
  raw(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), 'application/json'),
  raw(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'application/json'),
  raw(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, 'application/json'),
  json({ name: nested(500), metadata: nested(500) }),
  json({ big: 'x'.repeat(2 * 1024 * 1024) }),
  json(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
  raw('{}', 'application/json; charset=latin1'),
  raw('{}', 'application/json; charset=utf-16'),
  raw('{}', 'application/json', { 'content-encoding': 'gzip' }),
  raw('{}', 'application/json', { 'content-encoding': 'br' }),
  raw('{}', 'application/json', { 'content-encoding': 'x-unknown' }),
  raw('{"name":"x"}', 'text/plain'),
  raw('{"name":"x"}'),
  raw('a=1&b=2&a=3', 'application/x-www-form-urlencoded'),
  raw('%zz=%00&x=%FF', 'application/x-www-form-urlencoded'),
  raw('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n', 'multipart/form-data; boundary=x'),
  raw('<a/>', 'application/xml'),
  raw('{}', 'garbage'),
  json([]),
  json(null),
  json('string'),
  json(42),
];

/** A body for an operation taking `bodies` (by media type): mostly a mutated valid one, now and then a hostile one. */
export function bodyArbitrary(
  context: SchemaContext,
  bodies: Record<string, JsonSchema>,
): fc.Arbitrary<GeneratedBody | undefined> {
  const hostile = fc.constantFrom(...HOSTILE_BODIES);
  const types = Object.keys(bodies);
  if (!types.length)
    return fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostile });
  const byType = types.map(type => {
    const value = mutatedObject(context, bodies[type]);
    if (/x-www-form-urlencoded/.test(type)) return value.map(v => raw(formEncode(v), type));
    if (/json/.test(type)) return value.map(v => json(v, type));
    return value.map(v => raw(queryText(v), type));
  });
  return fc.oneof(
    { weight: 8, arbitrary: fc.oneof(...byType) },
    { weight: 2, arbitrary: hostile },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** `application/x-www-form-urlencoded`: arrays as repeated keys, anything else as its text. */
function formEncode(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return encode(value);
  const pairs: string[] = [];
  for (const [key, v] of Object.entries(value))
    for (const item of Array.isArray(v) ? v : [v]) pairs.push(`${encodeURIComponent(key)}=${encode(item)}`);
  return pairs.join('&');
}
