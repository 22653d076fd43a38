import { z } from 'zod';
import type { Route } from './routes/route.js';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Missing, invalid or not-allowed credentials',
  402: 'Payment failed',
  403: 'Not permitted',
  404: 'Not found',
  409: 'Conflict',
  422: 'Validation error',
  429: 'Rate limited; see Retry-After',
};

const errorSchema = {
  type: 'object',
  required: ['error', 'detail'],
  properties: { error: { type: 'string' }, detail: { type: 'string' } },
};
const validationErrorSchema = {
  type: 'object',
  required: ['detail'],
  properties: {
    error: { type: 'string' },
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'loc', 'msg'],
        properties: {
          type: { type: 'string' },
          loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
          msg: { type: 'string' },
          input: {},
          ctx: { type: 'object' },
        },
      },
    },
  },
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** OpenAPI 3.1 for the REST surface, generated from the same route table the router uses. */
export function buildOpenApi(routes: Route[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters: unknown[] = [];
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
    const responses: Record<string, unknown> = {
      [String(route.status)]:
        route.status === 204
          ? { description: 'Success, no content' }
          : {
              description: 'Success',
              content: {
                [route.contentType ?? 'application/json']: {
                  schema: route.response ? jsonSchema(route.response, 'output') : {},
                },
              },
            },
      401: { description: ERROR_DESCRIPTIONS[401] },
      422: {
        description: ERROR_DESCRIPTIONS[422],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
      },
    };
    for (const status of route.errors ?? []) {
      responses[String(status)] = {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    (paths[route.path] ??= {})[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      'x-polar-allowed-subjects': route.access.subjects.map(s => s[0].toUpperCase() + s.slice(1)),
      security: route.access.scopes.length ? [{ bearer: [...route.access.scopes] }] : [],
      parameters,
      ...(route.body
        ? {
            requestBody: {
              required: !route.bodyOptional,
              content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Subscription billing API',
      version: '0.1.0',
      description: 'Polar-compatible REST API. All paths are under /v1; collection paths end with a slash.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'Organization access token, personal access token, OAuth 2.0 access token or customer session token.',
        },
      },
      schemas: { Error: errorSchema, HTTPValidationError: validationErrorSchema },
    },
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A readable, dependency-free page over the OpenAPI document (served at /docs). */
export function renderDocsPage(document: Record<string, any>): string {
  const sections: string[] = [];
  for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, op] of Object.entries<any>(operations)) {
      const params = (op.parameters as any[])
        .map(
          p =>
            `<li><code>${escapeHtml(p.name)}</code> <em>${p.in}${p.required ? ', required' : ''}</em> <code>${escapeHtml(JSON.stringify(p.schema))}</code></li>`,
        )
        .join('');
      const statuses = Object.entries<any>(op.responses)
        .map(([s, r]) => `<li><code>${s}</code> ${escapeHtml(r.description)}</li>`)
        .join('');
      const body = op.requestBody
        ? `<details><summary>Request body</summary><pre>${escapeHtml(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre></details>`
        : '';
      sections.push(`<section id="${escapeHtml(op.operationId)}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p>${escapeHtml(op.summary)} — <code>${escapeHtml(op.operationId)}</code>; callers: ${escapeHtml(op['x-polar-allowed-subjects'].join(', '))}; scopes (any of): ${escapeHtml((op.security[0]?.bearer ?? ['none']).join(', '))}</p>
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${body}<h4>Responses</h4><ul>${statuses}</ul></section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(document.info.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}section{border-top:1px solid #ddd;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;font-size:.8rem;padding:.1rem .4rem;border-radius:.3rem;color:#fff;background:#555;text-align:center}.get{background:#2a7}.post{background:#27a}.patch{background:#a72}.delete{background:#a33}.put{background:#72a}
pre{background:#f6f6f6;padding:.5rem;overflow:auto}</style></head><body>
<h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>. GraphQL: <code>POST /graphql</code> with the same bearer token.</p>
${sections.join('\n')}</body></html>`;
}
