/**
 * A PostgreSQL array literal (`{"a","b"}`) for `= any(?::uuid[])`: MikroORM expands an array bound to `?`
 * into a list of parameters, which `any` does not take. Every element is quoted (a backslash before `"`
 * and `\`), so any text is one element, never a syntax error or a second element.
 */
export function pgArray(values: readonly string[]): string {
  return `{${values.map(v => `"${v.replace(/["\\]/g, c => `\\${c}`)}"`).join(',')}}`;
}
