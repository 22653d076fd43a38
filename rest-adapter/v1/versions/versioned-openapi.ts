import { type ApiVersion, type BodyPath, fieldsOutside, routeExistsIn } from './api-versions.js';

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `schema` without `fields` at `path`, through `anyOf`/`oneOf`/`allOf` branches (a nullable object). */
function omitInSchema(schema: Json | undefined, path: BodyPath, fields: string[]): Json | undefined {
  if (!schema || typeof schema !== 'object') return schema;
  const branches = (['anyOf', 'oneOf', 'allOf'] as const).filter(k => Array.isArray(schema[k]));
  if (branches.length) {
    const copy = { ...schema };
    for (const k of branches) copy[k] = schema[k].map((s: Json) => omitInSchema(s, path, fields));
    return copy;
  }
  if (path.length === 0) {
    if (!schema.properties) return schema;
    const properties = { ...schema.properties };
    for (const field of fields) delete properties[field];
    const required = Array.isArray(schema.required)
      ? schema.required.filter((name: string) => !fields.includes(name))
      : undefined;
    return { ...schema, properties, ...(required ? { required } : {}) };
  }
  const [step, ...rest] = path;
  if (step === '[]') return schema.items ? { ...schema, items: omitInSchema(schema.items, rest, fields) } : schema;
  if (!schema.properties?.[step]) return schema;
  return {
    ...schema,
    properties: { ...schema.properties, [step]: omitInSchema(schema.properties[step], rest, fields) },
  };
}

/** The operation as the version documents it: its success body without the fields outside the version. */
function operationIn(version: ApiVersion, operation: Json): Json {
  const removals = fieldsOutside(version, operation.operationId);
  if (!removals.length) return operation;
  const responses = { ...operation.responses };
  for (const [status, response] of Object.entries<Json>(operation.responses)) {
    const content = response.content?.['application/json'];
    if (!status.startsWith('2') || !content?.schema) continue;
    let schema = content.schema;
    for (const { path, fields } of removals) schema = omitInSchema(schema, path, fields);
    responses[status] = { ...response, content: { ...response.content, 'application/json': { ...content, schema } } };
  }
  return { ...operation, responses };
}

/**
 * The OpenAPI document of one version (docs/api-versions.md#openapi-documents), from the document of
 * the newest shape that openapi.ts builds: the routes that exist in the version, each success body
 * without the fields declared outside it, and the version as `info.version` (the `Polar-Version`
 * parameter keeps its default: a request without the header is still answered in the default).
 */
export function openApiForVersion(document: Json, version: ApiVersion): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    const kept: Json = {};
    for (const [key, value] of Object.entries<Json>(item)) {
      if (!METHODS.includes(key) || !value.operationId) kept[key] = value;
      else if (routeExistsIn(version, value.operationId)) kept[key] = operationIn(version, value);
    }
    if (Object.keys(kept).some(k => METHODS.includes(k))) paths[path] = kept;
  }
  return { ...document, info: { ...document.info, version }, paths };
}
