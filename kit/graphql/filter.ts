/** The deprecation reason of a list's separate arguments that its `filter` input replaced (docs/graphql.md#filters). */
export const FILTER_REPLACES = 'Use filter.';

/**
 * A list's filters from its `filter` input and the separate arguments it took before (still accepted,
 * deprecated): a field of `filter` wins over its old argument (docs/graphql.md#filters).
 */
export function mergeFilter<T extends Record<string, unknown>>(
  filter: { [K in keyof T]?: T[K] | null } | null | undefined,
  old: T,
): T {
  if (!filter) return old;
  const merged = { ...old };
  for (const key of Object.keys(old) as (keyof T)[]) merged[key] = (filter[key] ?? old[key]) as T[keyof T];
  return merged;
}
