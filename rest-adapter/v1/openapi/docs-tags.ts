/**
 * The docs page draws one tag at a time: Swagger UI reads a whole OpenAPI 3.1 document into its own
 * object model before it draws the first operation, and on the full document (about 1 MB) that alone
 * took seconds on a loaded machine. Each tag's document holds that tag's operations, the document's
 * components (small: the shared errors and security schemes) and its info, so Swagger UI reads a few
 * dozen KB. `/openapi.json` stays the one complete document; `all` on the page loads it.
 */

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The tags that have operations, in the document's order, each with its number of operations. */
export function documentTags(document: Record<string, any>): { name: string; operations: number }[] {
  const counts = new Map<string, number>();
  for (const item of Object.values<Record<string, any>>(document.paths))
    for (const method of METHODS)
      for (const tag of item[method]?.tags ?? ['default']) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const declared: string[] = (document.tags ?? []).map((t: { name: string }) => t.name);
  const order = [
    ...declared.filter(name => counts.has(name)),
    ...[...counts.keys()].filter(n => !declared.includes(n)),
  ];
  return order.map(name => ({ name, operations: counts.get(name)! }));
}

/** The document restricted to one tag's operations (null for a tag with none). */
export function tagDocument(document: Record<string, any>, tag: string): Record<string, any> | null {
  const paths: Record<string, any> = {};
  for (const [route, item] of Object.entries<Record<string, any>>(document.paths)) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([key, op]) => !METHODS.includes(key) || (op.tags ?? ['default']).includes(tag)),
    );
    if (METHODS.some(method => kept[method])) paths[route] = kept;
  }
  if (!Object.keys(paths).length) return null;
  return { ...document, tags: (document.tags ?? []).filter((t: { name: string }) => t.name === tag), paths };
}
