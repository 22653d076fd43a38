import { API_VERSIONS } from '../versions/api-versions.js';
import { securityOf } from './security.js';
import { type Json, jsonContent, polarOrganizationRef, polarVersionRef, refs, schemaRef } from './wire-schemas.js';

/** The service's own endpoints (rest-adapter/app.ts): probes, this document and the GraphQL endpoint. */

const status = (values: string[]): Json => ({
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: values } },
});

/** /readyz: the status, and what an operator must know: Redis (when configured) and the payment processor. */
const readiness = (values: string[]): Json => ({
  ...status(values),
  properties: {
    status: { type: 'string', enum: values },
    redis: { type: 'string', enum: ['ok', 'unreachable'], description: 'Only with REDIS_URL' },
    degraded: { type: 'boolean', description: 'True while Redis is unreachable (limits count per process)' },
    payment_processor: {
      type: 'object',
      description: 'Which processor takes the money here: `test` (simulated), `stripe`, or `none` (free products only)',
      properties: {
        name: { type: 'string', enum: ['test', 'stripe', 'none'] },
        takes_real_money: { type: 'boolean' },
        warning: { type: ['string', 'null'] },
      },
    },
  },
});

export const serviceSchemas: Record<string, Json> = {
  GraphQLRequest: {
    type: 'object',
    required: ['query'],
    properties: {
      query: { type: 'string', description: 'A GraphQL document' },
      operationName: { type: ['string', 'null'] },
      variables: { type: ['object', 'null'], additionalProperties: true },
    },
  },
  GraphQLResponse: {
    type: 'object',
    description:
      'GraphQL over HTTP: `data` and/or `errors`; a domain error carries `extensions.code` and `extensions.http.status`.',
    properties: {
      data: { type: ['object', 'null'], additionalProperties: true },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            path: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
            extensions: { type: 'object', additionalProperties: true },
          },
        },
      },
    },
  },
};

export const servicePaths: Record<string, Json> = {
  '/healthz': {
    get: {
      operationId: 'service:healthz',
      summary: 'Liveness: the process answers',
      tags: ['service'],
      security: [],
      responses: { 200: { description: 'Alive', content: jsonContent(status(['ok'])) } },
    },
  },
  '/readyz': {
    get: {
      operationId: 'service:readyz',
      summary: 'Readiness: the database answers and no connection pool is starved',
      tags: ['service'],
      security: [],
      responses: {
        200: { description: 'Ready', content: jsonContent(readiness(['ok'])) },
        503: {
          description: 'The database does not answer, or a connection pool gives no connection within 2 s',
          content: jsonContent(readiness(['unavailable'])),
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'service:openapi',
      summary: 'This OpenAPI document',
      tags: ['service'],
      security: [],
      responses: {
        200: {
          description: 'OpenAPI 3.1 document of everything this service serves',
          content: jsonContent({ type: 'object', additionalProperties: true }),
        },
      },
    },
  },
  '/{version}/openapi.json': {
    get: {
      operationId: 'service:openapi_version',
      summary: "One API version's OpenAPI document",
      description:
        'The document of the version in the path: its routes, and each answer with the fields that version has ' +
        "(`/openapi.json` is the default version's). Another version is a 404.",
      tags: ['service'],
      security: [],
      parameters: [
        { name: 'version', in: 'path', required: true, schema: { type: 'string', enum: [...API_VERSIONS] } },
      ],
      responses: {
        200: {
          description: 'OpenAPI 3.1 document of one API version',
          content: jsonContent({ type: 'object', additionalProperties: true }),
        },
        ...refs([[404, 'NotFound']]),
      },
    },
  },
  '/graphql': {
    get: {
      operationId: 'graphql:explorer',
      summary: 'The GraphQL explorer, for a browser',
      description:
        'A request that prefers `text/html` gets GraphiQL, served by this service, which posts to `POST /graphql` ' +
        'with the token typed in its Headers tab. Any other GET is a 405: queries are sent with POST.',
      tags: ['service'],
      security: [],
      responses: {
        200: {
          description: 'The explorer page (`Accept: text/html`)',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        405: {
          description: 'A GET that does not ask for HTML: send the query with POST',
          content: jsonContent(schemaRef('GraphQLResponse')),
        },
        ...refs([
          [401, 'InvalidToken'],
          [403, 'Forbidden'],
          [404, 'UnsupportedVersion'],
        ]),
      },
    },
    post: {
      operationId: 'graphql',
      summary: 'The federated GraphQL API',
      description:
        'Queries subscriptions, orders and customers together in one request, with the same bearer token and the ' +
        'same access rules as the REST operations. Without a token, only what anonymous callers may read.',
      tags: ['service'],
      security: securityOf(['user', 'organization', 'customer', 'anonymous'], []),
      parameters: [polarVersionRef, polarOrganizationRef],
      requestBody: { required: true, content: jsonContent(schemaRef('GraphQLRequest')) },
      responses: {
        200: {
          description: 'Executed (errors, if any, are in `errors`)',
          content: jsonContent(schemaRef('GraphQLResponse')),
        },
        400: {
          description: 'Not a GraphQL request, or a document that does not parse or validate',
          content: jsonContent(schemaRef('GraphQLResponse')),
        },
        ...refs([
          [401, 'InvalidToken'],
          // A Polar-Organization header the caller cannot act for, or that is not a UUID: answered
          // before the document runs, in the REST shape (docs/principals.md#polar-organization).
          [403, 'Forbidden'],
          [404, 'UnsupportedVersion'],
          [413, 'PayloadTooLarge'],
          [422, 'ValidationError'],
        ]),
      },
    },
  },
};
