/**
 * Key-case conversion between the wire (snake_case, as Polar's clients expect) and GraphQL
 * (camelCase). Values under user-defined maps (metadata) are opaque: their keys are the merchant's.
 */
const OPAQUE_KEYS = new Set([
  'metadata',
  'custom_field_data',
  'customFieldData',
  'user_metadata',
  'userMetadata',
  // a license key activation's `meta` and `conditions`
  'meta',
  'conditions',
]);

/**
 * Renamed keys are memoised: the same few hundred field names go through here on every response, and
 * the regular-expression replace was a visible part of a list request's cost. Bounded, since keys can
 * come from request bodies.
 */
function memoised(rename: (key: string) => string): (key: string) => string {
  const cache = new Map<string, string>();
  return key => {
    let renamed = cache.get(key);
    if (renamed === undefined) {
      renamed = rename(key);
      if (cache.size < 10_000) cache.set(key, renamed);
    }
    return renamed;
  };
}

/** `createdAt` → `created_at` (memoised). */
export const toSnake = memoised(key => key.replace(/[A-Z]/g, c => `_${c.toLowerCase()}`));
/** `created_at` → `createdAt` (memoised). */
export const toCamel = memoised(key => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

/** Whether the value under `key` is a user-defined map whose keys stay as written. */
export const isOpaqueKey = (key: string): boolean => OPAQUE_KEYS.has(key);

function convert(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map(v => convert(v, rename));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key === '__typename') continue;
    const inner = source[key];
    out[rename(key)] = OPAQUE_KEYS.has(key) ? inner : convert(inner, rename);
  }
  return out;
}

export const snakeKeys = <T = unknown>(value: unknown): T => convert(value, toSnake) as T;
export const camelKeys = <T = unknown>(value: unknown): T => convert(value, toCamel) as T;
