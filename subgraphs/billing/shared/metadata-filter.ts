/**
 * A list's `metadata` filter as the read path binds it: `{ plan: ["pro", "team"], vip: true }` →
 * `{ plan: ["pro", "team"], vip: ["true"] }` (text comparison, as Polar's `metadata[key]=value`).
 */
export function metadataFilter(metadata: Record<string, unknown> | null | undefined): Record<string, string[]> | null {
  if (!metadata) return null;
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [key, (Array.isArray(value) ? value : [value]).map(String)]),
  );
}
