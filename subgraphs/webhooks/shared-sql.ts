/**
 * A PostgreSQL array literal (`{a,b}`) for `= any(?::uuid[])`: MikroORM expands an array bound to `?`
 * into a list of parameters, which `any` does not take. Only for values without commas, quotes, braces
 * or backslashes (ids, event types), which is all this subgraph binds this way.
 */
export function pgArray(values: readonly string[]): string {
  for (const v of values) if (/[,"{}\\\s]/.test(v)) throw new Error(`not an array-literal-safe value: ${v}`);
  return `{${values.join(',')}}`;
}
