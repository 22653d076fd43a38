import { z } from 'zod';
import type { Route } from '../routes/route.js';
import { securityOf } from './security.js';
import {
  type ErrorResponseName,
  type Json,
  polarOrganizationRef,
  polarVersionRef,
  RESPONSE_OF_STATUS,
  refs,
} from './wire-schemas.js';

export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

const subjectName = (subject: string) => subject[0].toUpperCase() + subject.slice(1);

/**
 * The errors any route can answer besides the ones it declares: 401 (no credential for it, or a bad
 * token), 403 (a missing scope, or a user's or organization's token with a `Polar-Organization` header
 * naming an organization it cannot act for, refused before routing on every route), 404 for an
 * unsupported Polar-Version, 413 for a body over 1 MB, 422 for invalid input (or a body that is not
 * JSON, or a `Polar-Organization` that is not a UUID), 503 when a bounded database wait ran out
 * (docs/reliability.md#database-waits).
 */
function errorResponsesOf(route: Route): Record<string, Json> {
  const statuses = new Map<number, ErrorResponseName>([
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'NotFound'],
    [422, 'ValidationError'],
    [503, 'ServiceUnavailable'],
  ]);
  if (route.body) statuses.set(413, 'PayloadTooLarge');
  for (const status of route.errors ?? []) statuses.set(status, RESPONSE_OF_STATUS[status] ?? 'BadRequest');
  return refs([...statuses].sort(([a], [b]) => a - b));
}

/** One route of the table as an OpenAPI operation. */
export function operationOf(route: Route): Json {
  const parameters: Json[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      parameters.push({
        name,
        in: location,
        required: location === 'path' || !field.safeParse(undefined).success,
        ...(location === 'query' && name === 'metadata' ? { style: 'deepObject', explode: true } : {}),
        schema: jsonSchema(field, 'input'),
      });
    }
  }
  parameters.push(polarVersionRef, polarOrganizationRef);
  const success =
    route.status === 204
      ? { description: 'Success, no content' }
      : {
          description: 'Success',
          content: {
            [route.contentType ?? 'application/json']: {
              schema: route.response ? jsonSchema(route.response, 'output') : {},
            },
          },
        };
  const subjects = route.access.subjects.map(subjectName);
  const scopes = route.access.scopes;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description:
      (route.description ? `${route.description}\n\n` : '') +
      `Callers: ${subjects.join(', ')}.` +
      (scopes.length === 1 ? ` Scope: \`${scopes[0]}\`.` : '') +
      (scopes.length > 1 ? ` Scopes: any one of ${scopes.map(s => `\`${s}\``).join(', ')}.` : ''),
    tags: [route.tag],
    'x-polar-allowed-subjects': subjects,
    security: securityOf(route.access.subjects, scopes),
    parameters,
    ...(route.body
      ? {
          requestBody: {
            required: !route.bodyOptional,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: { [String(route.status)]: success, ...errorResponsesOf(route) },
  };
}
