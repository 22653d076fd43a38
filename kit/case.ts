/**
 * Key-case conversion between the wire (snake_case, as Polar's clients expect) and GraphQL
 * (camelCase). Values under user-defined maps (metadata) are opaque: their keys are the merchant's.
 */
const OPAQUE_KEYS = new Set(['metadata', 'custom_field_data', 'customFieldData', 'user_metadata', 'userMetadata']);

const toSnake = (key: string) => key.replace(/[A-Z]/g, c => `_${c.toLowerCase()}`);
const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function convert(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map(v => convert(v, rename));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === '__typename') continue;
    out[rename(key)] = OPAQUE_KEYS.has(key) ? inner : convert(inner, rename);
  }
  return out;
}

export const snakeKeys = <T = unknown>(value: unknown): T => convert(value, toSnake) as T;
export const camelKeys = <T = unknown>(value: unknown): T => convert(value, toCamel) as T;
