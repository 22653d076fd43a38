import { type ApiVersion, type BodyPath, fieldsOutside } from './api-versions.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `node` without `fields` at `path` (only the objects along the path are copied). */
function omitAt(node: unknown, path: BodyPath, fields: string[]): unknown {
  if (path.length === 0) {
    if (!isObject(node)) return node;
    const copy = { ...node };
    for (const field of fields) delete copy[field];
    return copy;
  }
  const [step, ...rest] = path;
  if (step === '[]') return Array.isArray(node) ? node.map(item => omitAt(item, rest, fields)) : node;
  if (!isObject(node) || !(step in node)) return node;
  return { ...node, [step]: omitAt(node[step], rest, fields) };
}

/**
 * A route's success body as its version shows it (docs/api-versions.md#answers): the wire builders
 * write the newest shape, and an older version never sees a field that came after it.
 */
export function shapeForVersion(version: ApiVersion, operationId: string, body: unknown): unknown {
  let shaped = body;
  for (const { path, fields } of fieldsOutside(version, operationId)) shaped = omitAt(shaped, path, fields);
  return shaped;
}
