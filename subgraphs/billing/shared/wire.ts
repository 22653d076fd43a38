import { isOpaqueKey, toSnake } from '../../../kit/case.js';

/**
 * A GraphQL result or public type as JSON values: bigint money → number, dates → ISO strings, nested
 * objects and lists too, except `metadata` (the merchant's map, kept as written). The wire builders
 * (`product.wire.ts`, `discount.wire.ts`) start from this.
 *
 * NOTE: plain loops, no `Object.entries`/`fromEntries`: a page of 100 orders goes through here some
 * 10,000 times, and the pairs those built were most of a list request's garbage (docs/performance.md).
 */
export function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? Number(value) : value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = plain(value[i]);
    return out;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) out[key] = key === 'metadata' ? source[key] : plain(source[key]);
  return out;
}

/**
 * `snakeKeys(plain(value))` in one walk, with no intermediate copy: JSON values with snake_case keys,
 * `__typename` dropped, user-defined maps (`metadata`, custom field data…) kept as written.
 */
export function wireOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? Number(value) : value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = wireOf(value[i]);
    return out;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === '__typename') continue;
    const inner = source[key];
    out[toSnake(key)] = key === 'metadata' ? inner : isOpaqueKey(key) ? plain(inner) : wireOf(inner);
  }
  return out;
}

/**
 * `wireOf` of an object, with some top-level keys left out (`skip`) or put on the wire by their own
 * builder (`own`, e.g. an embedded product through `productWire`), each at its key's place.
 */
export function wireWith(
  value: object,
  own: Readonly<Record<string, ((inner: any) => unknown) | null>>,
): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (key === '__typename') continue;
    const inner = source[key];
    if (Object.hasOwn(own, key)) {
      const build = own[key];
      if (build) out[toSnake(key)] = build(inner);
      continue;
    }
    out[toSnake(key)] = key === 'metadata' ? inner : isOpaqueKey(key) ? plain(inner) : wireOf(inner);
  }
  return out;
}
