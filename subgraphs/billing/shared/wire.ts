/**
 * A GraphQL result or public type as JSON values: bigint money → number, dates → ISO strings, nested
 * objects and lists too, except `metadata` (the merchant's map, kept as written). The wire builders
 * (`product.wire.ts`, `discount.wire.ts`) start from this.
 */
export function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'metadata' ? v : plain(v)]));
  return value;
}
